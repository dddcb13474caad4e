import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import type { AppContext } from '$lib/server/app';
import { decrypt, encrypt } from '$lib/server/crypto/secretbox';
import type { Tx } from '$lib/server/db';
import { preparedPer } from '$lib/server/db/prepared';
import { presentedPdfs } from '$lib/server/db/schema';
import type { SigningSession } from '$lib/server/signing/session';

/** The application PDF as a session was offered it: what the audit event records. */
export interface PresentedPdf {
	sha256: string;
	pages: number;
	offeredAt: Date;
}

export interface PresentedPdfWithBytes extends PresentedPdf {
	bytes: Uint8Array;
}

export async function presentedPdfOf(
	db: Tx,
	key: Buffer,
	sessionId: string
): Promise<PresentedPdfWithBytes | undefined> {
	const [row] = await db.select().from(presentedPdfs).where(eq(presentedPdfs.sessionId, sessionId));
	if (!row) return undefined;
	return {
		sha256: row.sha256,
		pages: row.pages,
		offeredAt: row.offeredAt,
		bytes: Buffer.from(decrypt(key, row.bytesEnc), 'base64')
	};
}

const offeredQuery = preparedPer((db) =>
	db
		.select({
			sha256: presentedPdfs.sha256,
			pages: presentedPdfs.pages,
			offeredAt: presentedPdfs.offeredAt
		})
		.from(presentedPdfs)
		.where(eq(presentedPdfs.sessionId, sql.placeholder('sessionId')))
		.prepare('offered_pdf')
);

/**
 * The PDF on offer to a session, without its bytes (what the sign step shows, what a decision
 * records): fetched and kept first when the session has none yet. A page view then costs one
 * narrow SELECT, not reading back and decrypting the whole document.
 */
export async function offeredPdf(
	ctx: AppContext,
	session: Pick<SigningSession, 'id' | 'officeId' | 'applicationId'>
): Promise<PresentedPdf> {
	const [row] = await offeredQuery(ctx.db).execute({ sessionId: session.id });
	if (row) return row;
	const { sha256, pages, offeredAt } = await offerApplicationPdf(ctx, session);
	return { sha256, pages, offeredAt };
}

/**
 * The service's application PDF for this session: the copy it was first offered, or else fetched
 * now and kept (encrypted) as the copy offered. Every later view, the decision's audit event and
 * the signed copy use those same bytes, so the hash on the certificate is of what was shown, even
 * though the service renders a new file (new dates) on every request.
 *
 * Call it wherever the PDF is offered (the sign step's inline view); the decision calls it too,
 * so a decision taken before the PDF was ever shown still records the one that was on offer.
 * Throws the client's OnboardingError when the service cannot give the PDF.
 */
export async function offerApplicationPdf(
	ctx: AppContext,
	session: Pick<SigningSession, 'id' | 'officeId' | 'applicationId'>,
	now = new Date()
): Promise<PresentedPdfWithBytes> {
	const kept = await presentedPdfOf(ctx.db, ctx.encryptionKey, session.id);
	if (kept) return kept;
	const bytes = await ctx.onboarding.getApplicationPdf(session.officeId, session.applicationId);
	const pages = (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount();
	const sha256 = createHash('sha256').update(bytes).digest('hex');
	// Two tabs racing: the first copy stays, and both read it back.
	await ctx.db
		.insert(presentedPdfs)
		.values({
			sessionId: session.id,
			officeId: session.officeId,
			applicationId: session.applicationId,
			sha256,
			pages,
			bytesEnc: encrypt(ctx.encryptionKey, Buffer.from(bytes).toString('base64')),
			offeredAt: now
		})
		.onConflictDoNothing();
	return (await presentedPdfOf(ctx.db, ctx.encryptionKey, session.id))!;
}
