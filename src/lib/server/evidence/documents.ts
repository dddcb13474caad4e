import { inArray } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { PDFDict, PDFHexString, PDFName, type PDFDocument } from 'pdf-lib';
import type { AppContext } from '$lib/server/app';
import { sanitizedHtml } from '$lib/server/db/schema';
import type { SigningSession } from '$lib/server/signing/session';
import { renderCertificate } from './certificate';
import { chainHead } from './chain-head';
import { gatherFacts, type Audience, type EvidenceFacts } from './facts';
import { offerApplicationPdf, offeredPdf } from './presented';
import { labelOpenTypeFonts } from './layout';
import { sealPdf } from './seal';
import { renderSignedCopy, type AgreementSection } from './signed-copy';

export interface DocumentRequest {
	officeId: number;
	applicationId: number;
	/** The public origin for the verify link and QR code (the request's; else ORIGIN). */
	origin?: string;
	now?: Date;
	/**
	 * The application's audit-chain head, when the caller read it already (the done step's PDFs,
	 * with the signing session: chain-head.ts); read here when undefined.
	 */
	chainHead?: string | null;
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
	await labelOpenTypeFonts(pdf);
	return sealPdf(pdf, await ctx.seal(), { reason, location: url, signingTime: now });
}

/**
 * Documents already made, per portal instance. Rendering and sealing one costs about 60 ms of CPU
 * (pdf-lib, pako, the RSA signature) where sending it again costs under 1 ms, and a signer or a
 * rep often downloads the same one twice. A document is a function of the application's audit
 * chain, so it is kept under the chain's head (with the audience, session and origin) and made
 * afresh as soon as anything is appended. Bounded in size and age: the bytes hold what the
 * certificate prints (names, email, IP address; never an SSN beyond its last four), so they leave
 * memory after five minutes.
 */
const made = new WeakMap<AppContext, LRUCache<string, Uint8Array, () => Promise<Uint8Array>>>();

function madeBy(ctx: AppContext) {
	let cache = made.get(ctx);
	if (!cache) {
		cache = new LRUCache<string, Uint8Array, () => Promise<Uint8Array>>({
			ttl: 5 * 60_000,
			maxSize: 16 * 1024 * 1024,
			sizeCalculation: (bytes) => Math.max(1, bytes.byteLength),
			// Concurrent downloads of one document share one making.
			fetchMethod: (_key, _stale, { context }) => context()
		});
		made.set(ctx, cache);
	}
	return cache;
}

/** `make()`, or the same document made earlier from the same chain. A given `now` makes afresh. */
async function once(
	ctx: AppContext,
	req: DocumentRequest,
	what: string,
	make: () => Promise<Uint8Array>
): Promise<Uint8Array> {
	if (req.now) return make();
	const head =
		req.chainHead !== undefined
			? req.chainHead
			: await chainHead(ctx.db, req.officeId, req.applicationId);
	const key = [what, req.officeId, req.applicationId, req.origin ?? '', head ?? 'empty'].join('|');
	const bytes = await madeBy(ctx).fetch(key, { context: make });
	// fetchMethod never yields undefined here: it returns make()'s bytes or throws its error.
	return bytes!;
}

/**
 * The certificate of completion, sealed. `merchant`: page 1 and the signing session's own
 * timeline (`sessionId`, default the session that decided); `rep`: the same plus the
 * application's whole hash-chained trail as an appendix. Throws EvidenceNotFoundError when no
 * decision is recorded.
 */
export function certificatePdf(
	ctx: AppContext,
	req: DocumentRequest & { audience: Audience; sessionId?: string }
): Promise<Uint8Array> {
	const what = `certificate:${req.audience}:${req.sessionId ?? ''}`;
	return once(ctx, req, what, () => makeCertificate(ctx, req));
}

async function makeCertificate(
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
export function signedCopyPdf(ctx: AppContext, req: DocumentRequest): Promise<Uint8Array> {
	return once(ctx, req, 'signed-copy', () => makeSignedCopy(ctx, req));
}

async function makeSignedCopy(ctx: AppContext, req: DocumentRequest): Promise<Uint8Array> {
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
		source,
		agreement: await agreementShown(ctx, facts)
	});
	stamp(pdf, facts, 'signed-copy', null);
	return seal(ctx, pdf, 'Signed copy of a merchant application', url, now);
}

/**
 * The sections the signer was shown, with the sanitized HTML each hash names: the sanitizer's
 * store (sanitize/cache.ts) keeps every HTML it made, which is what the agreement page showed.
 */
async function agreementShown(ctx: AppContext, f: EvidenceFacts): Promise<AgreementSection[]> {
	const shown = f.sections.map((section) => ({
		...section,
		sha256: f.documents.find((d) => d.title === section.title)?.sha256 ?? null
	}));
	const hashes = [...new Set(shown.map((s) => s.sha256).filter((h): h is string => h !== null))];
	const rows =
		hashes.length === 0
			? []
			: await ctx.db
					.select({ sha256: sanitizedHtml.sha256, html: sanitizedHtml.html })
					.from(sanitizedHtml)
					.where(inArray(sanitizedHtml.sha256, hashes));
	const html = new Map(rows.map((r) => [r.sha256, r.html]));
	return shown.map((s) => ({ ...s, html: (s.sha256 && html.get(s.sha256)) ?? null }));
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
		const { sha256, pages } = await offeredPdf(ctx, session);
		return { sha256, pages };
	} catch (err) {
		console.error(
			`[evidence] application PDF not recorded for the decision: ${err instanceof Error ? err.name : 'unknown error'}`
		);
		return null;
	}
}
