import { PDFDict, PDFHexString, PDFName, type PDFDocument } from 'pdf-lib';
import type { AppContext } from '$lib/server/app';
import type { SigningSession } from '$lib/server/signing/session';
import { renderCertificate } from './certificate';
import { gatherFacts, type Audience, type EvidenceFacts } from './facts';
import { offerApplicationPdf } from './presented';
import { sealPdf } from './seal';
import { renderSignedCopy } from './signed-copy';

export interface DocumentRequest {
	officeId: number;
	applicationId: number;
	/** The public origin for the verify link and QR code (the request's; else ORIGIN). */
	origin?: string;
	now?: Date;
}

/**
 * What a sealed document says about itself, in its Info dictionary (inside the sealed bytes):
 * `/verify` reads it only after the seal checks out, and compares it with the records.
 */
export interface EvidenceStamp {
	v: 1;
	kind: 'certificate' | 'signed-copy';
	audience: Audience | null;
	reference: string;
	officeId: number;
	applicationId: number;
	contentHash: string;
	/** The chain as it stood when the document was made. */
	chainCount: number;
	chainHead: string | null;
}

const STAMP = PDFName.of('PortalEvidence');

function infoDict(pdf: PDFDocument): PDFDict {
	return pdf.context.lookup(pdf.context.trailerInfo.Info, PDFDict);
}

export function readStamp(pdf: PDFDocument): EvidenceStamp | null {
	try {
		const value = infoDict(pdf).lookupMaybe(STAMP, PDFHexString)?.decodeText();
		const stamp = value ? (JSON.parse(value) as EvidenceStamp) : null;
		return stamp?.v === 1 ? stamp : null;
	} catch {
		return null;
	}
}

function stamp(
	pdf: PDFDocument,
	f: EvidenceFacts,
	kind: EvidenceStamp['kind'],
	audience: Audience | null
) {
	const s: EvidenceStamp = {
		v: 1,
		kind,
		audience,
		reference: f.reference,
		officeId: f.officeId,
		applicationId: f.applicationId,
		contentHash: f.contentHash,
		chainCount: f.chain.count,
		chainHead: f.chain.ok ? f.chain.head : null
	};
	infoDict(pdf).set(STAMP, PDFHexString.fromText(JSON.stringify(s)));
	pdf.setKeywords([`evidence reference ${f.reference}`, `certificate hash ${f.contentHash}`]);
}

function verifyUrl(ctx: AppContext, origin: string | undefined, reference: string): string {
	const base = origin ?? ctx.config.ORIGIN ?? `http://localhost:${ctx.config.PORT}`;
	return `${base.replace(/\/+$/, '')}/verify/${reference}`;
}

async function seal(ctx: AppContext, pdf: PDFDocument, reason: string, url: string, now: Date) {
	return sealPdf(pdf, await ctx.seal(), { reason, location: url, signingTime: now });
}

/**
 * The certificate of completion, sealed. `merchant`: page 1 and the signing session's own
 * timeline (`sessionId`, default the session that decided); `rep`: the same plus the
 * application's whole hash-chained trail as an appendix. Throws EvidenceNotFoundError when no
 * decision is recorded.
 */
export async function certificatePdf(
	ctx: AppContext,
	req: DocumentRequest & { audience: Audience; sessionId?: string }
): Promise<Uint8Array> {
	const now = req.now ?? new Date();
	const facts = await gatherFacts(ctx, req);
	const url = verifyUrl(ctx, req.origin, facts.reference);
	const pdf = await renderCertificate(facts, {
		timeZone: ctx.config.OFFICE_TIME_ZONE,
		verifyUrl: url,
		sealedBy: (await ctx.seal()).subject,
		generatedAt: now
	});
	stamp(pdf, facts, 'certificate', req.audience);
	return seal(ctx, pdf, 'Certificate of completion of an electronic signature', url, now);
}

export class NotSignedError extends Error {
	constructor() {
		super('The application was declined: there is no signed copy.');
		this.name = 'NotSignedError';
	}
}

/**
 * The signed copy: the application PDF as presented with a signature page, sealed. Throws
 * EvidenceNotFoundError with no decision, NotSignedError for a decline, and the client's
 * OnboardingError when no copy was kept and the service cannot give one now.
 */
export async function signedCopyPdf(ctx: AppContext, req: DocumentRequest): Promise<Uint8Array> {
	const now = req.now ?? new Date();
	const facts = await gatherFacts(ctx, { ...req, audience: 'merchant' });
	if (facts.outcome !== 'accepted') throw new NotSignedError();
	// No copy kept (the service was down at the decision): fetch one now; the page says so.
	const source = await offerApplicationPdf(ctx, {
		id: facts.sessionId,
		officeId: req.officeId,
		applicationId: req.applicationId
	});
	const url = verifyUrl(ctx, req.origin, facts.reference);
	const pdf = await renderSignedCopy(facts, {
		timeZone: ctx.config.OFFICE_TIME_ZONE,
		verifyUrl: url,
		generatedAt: now,
		source
	});
	stamp(pdf, facts, 'signed-copy', null);
	return seal(ctx, pdf, 'Signed copy of a merchant application', url, now);
}

/**
 * The application PDF's hash and page count for the decision's audit event: the copy this
 * session was offered, fetched and kept now if it never was. The decision does not wait on the
 * service: when the PDF cannot be had, it is recorded as null and the certificate says so.
 */
export async function applicationPdfForDecision(
	ctx: AppContext,
	session: Pick<SigningSession, 'id' | 'officeId' | 'applicationId'>
): Promise<{ sha256: string; pages: number } | null> {
	try {
		const { sha256, pages } = await offerApplicationPdf(ctx, session);
		return { sha256, pages };
	} catch (err) {
		console.error(
			`[evidence] application PDF not recorded for the decision: ${err instanceof Error ? err.name : 'unknown error'}`
		);
		return null;
	}
}
