import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { searchFold } from '$lib/fold';
import { appendAudit } from '$lib/server/audit/audit';
import { encrypt } from '$lib/server/crypto/secretbox';
import { notifyRep } from '$lib/server/mail/notes';
import { enqueueMail, type OutgoingMail } from '$lib/server/mail/outbox';
import type { Db, Tx } from '$lib/server/db';
import { preparedPer } from '$lib/server/db/prepared';
import { decisions } from '$lib/server/db/schema';
import type { RequestMeta } from '$lib/server/http/meta';
import { finishSession, type SigningSession } from '$lib/server/signing/session';
import type { SectionKey } from '$lib/server/signing/sections';
import { sessionEvent } from '$lib/server/signing/event';
import { fullName } from '$lib/server/signing/application';

export type Decision = typeof decisions.$inferSelect;

export interface DecisionInput {
	isAccepted: boolean;
	/** Each of the five sections: true only where presented and checked. */
	flags: Record<SectionKey, boolean>;
	firstName: string;
	lastName: string;
	email: string;
	notificationEmail: string;
	ssn: string;
	declineReason: string | null;
	/** The full name typed as the signature; accepting only. */
	signature?: string | null;
	/** The service's application PDF as offered to the signer; null when it could not be had. */
	applicationPdf?: { sha256: string; pages: number } | null;
}

export class AlreadyDecidedError extends Error {
	constructor() {
		super('A decision is already recorded for this application.');
	}
}

export async function decisionFor(db: Tx, officeId: number, applicationId: number) {
	const [row] = await db
		.select()
		.from(decisions)
		.where(and(eq(decisions.officeId, officeId), eq(decisions.applicationId, applicationId)));
	return row;
}

const decisionQuery = preparedPer((db) =>
	db
		.select()
		.from(decisions)
		.where(eq(decisions.id, sql.placeholder('id')))
		.prepare('decision_by_id')
);

export async function decisionById(db: Tx, id: string) {
	const [row] = await decisionQuery(db).execute({ id });
	return row;
}

/** The signer as the trail, the rep's note and the merchant's receipt name them. */
export const signerName = (input: Pick<DecisionInput, 'firstName' | 'lastName'>) =>
	fullName(input.firstName, input.lastName);

/**
 * The decision body as the interface document gives it, less `MerchantSSN`, which is stored
 * only encrypted and joined in at delivery.
 */
function decisionBody(session: SigningSession, input: DecisionInput, ip: string) {
	return {
		IPAddress: ip,
		IsAccepted: input.isAccepted,
		ApplicationID: session.applicationId,
		MerchantFirstName: input.firstName,
		MerchantLastName: input.lastName,
		MerchantEmail: input.email,
		MerchantIPAddress: ip,
		IsIndividualGuarantyAccepted: input.flags.IndividualGuaranty,
		AcceptanceLanguage: {
			Accept_TermsAndConditions_Prod: input.flags.TermsAndConditions,
			Accept_PaymentReceipt_Prod: input.flags.PaymentReceipt,
			Accept_IndividualGuaranty_Prod: input.flags.IndividualGuaranty,
			Accept_SeasonalAddendum_Prod: input.flags.SeasonalAddendum,
			Accept_NextDayFunding_Prod: input.flags.NextDayFunding
		},
		NotificationEmail: input.notificationEmail
	};
}

/**
 * Records the decision, closes the session's steps, uses up the application's links, writes the
 * audit event and queues the rep's note — one transaction, before anything is sent upstream.
 */
export async function recordDecision(
	db: Db,
	key: Buffer,
	session: SigningSession,
	input: DecisionInput,
	meta: RequestMeta,
	now = new Date(),
	/** The merchant's receipt (receipt.ts), queued with the decision once its reference is known. */
	receipt?: ((reference: string, at: Date) => OutgoingMail) | null
): Promise<Decision> {
	const ip = meta.ip ?? '';
	const body = decisionBody(session, input, ip);
	const signer = signerName(input);
	// The identity questions were about the owner the application names. A signer who typed other
	// names (a co-owner, or someone else) may sign, but the trail says so, for the rep and for the
	// certificate; a change of case or accents is the same name.
	const owner = fullName(session.ownerFirstName, session.ownerLastName);
	const ownerName = owner !== '' && searchFold(owner) !== searchFold(signer) ? owner : null;
	return db.transaction(async (tx) => {
		const [row] = await tx
			.insert(decisions)
			.values({
				officeId: session.officeId,
				applicationId: session.applicationId,
				sessionId: session.id,
				isAccepted: input.isAccepted,
				signature: input.signature ?? null,
				body,
				ssnEnc: encrypt(key, input.ssn),
				ssnLast4: input.ssn.slice(-4),
				declineReason: input.declineReason,
				createdAt: now,
				nextAttemptAt: now
			})
			.onConflictDoNothing()
			.returning();
		if (!row) {
			// The merchant's own second press (a double submit that left before the first was
			// recorded) is answered with what the first recorded; anyone else's is refused.
			const existing = await decisionFor(tx, session.officeId, session.applicationId);
			if (existing && existing.sessionId === session.id) return existing;
			throw new AlreadyDecidedError();
		}
		await finishSession(tx, session, { decisionId: row.id }, now);
		await appendAudit(tx, {
			...sessionEvent(session, meta),
			type: input.isAccepted ? 'decision.accepted' : 'decision.declined',
			at: now,
			data: {
				decisionId: row.id,
				sectionsAccepted: input.flags,
				sectionsShown: session.termsShown ?? [],
				signerName: signer,
				...(ownerName ? { ownerName } : {}),
				signature: input.signature ?? null,
				applicationPdf: input.applicationPdf ?? null,
				email: input.email,
				notificationEmail: input.notificationEmail,
				ssnLast4: input.ssn.slice(-4),
				declineReasonGiven: Boolean(input.declineReason)
			}
		});
		await notifyRep(tx, {
			officeId: session.officeId,
			applicationId: session.applicationId,
			business: session.businessName,
			repNo: session.repNo,
			at: now,
			...(input.isAccepted
				? { kind: 'signed', signer, owner: ownerName }
				: {
						kind: 'declined',
						signer,
						owner: ownerName,
						reason: input.declineReason
					})
		});
		if (receipt) await enqueueMail(tx, key, receipt(row.id, now), now);
		return row;
	});
}

/** Takes the delivery lease if nobody holds it; several instances may race for the same row. */
export async function claimDecision(db: Db, id: string, leaseMs: number, now = new Date()) {
	const [row] = await db
		.update(decisions)
		.set({ lockedUntil: new Date(now.getTime() + leaseMs) })
		.where(
			and(
				eq(decisions.id, id),
				eq(decisions.status, 'pending'),
				or(isNull(decisions.lockedUntil), sql`${decisions.lockedUntil} < ${now}`)
			)
		)
		.returning();
	return row;
}

/**
 * Decisions in trouble, for `/healthz`: waiting to be tried again after a failed delivery (the
 * service down or refusing for a while), and refused for good by the service in the last day
 * (each one a merchant's decision its rep must now take up by hand).
 */
export async function decisionTrouble(
	db: Tx,
	now = new Date()
): Promise<{ retrying: number; refused: number }> {
	const dayAgo = new Date(now.getTime() - 86_400_000);
	const [row] = await db
		.select({
			retrying: sql<number>`count(*) filter (where ${decisions.status} = 'pending' and ${decisions.attempts} > 0)::int`,
			refused: sql<number>`count(*) filter (where ${decisions.status} = 'rejected' and ${decisions.createdAt} > ${dayAgo})::int`
		})
		.from(decisions)
		.where(or(eq(decisions.status, 'pending'), eq(decisions.status, 'rejected')));
	return { retrying: row?.retrying ?? 0, refused: row?.refused ?? 0 };
}
