import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import type { AppContext } from '$lib/server/app';
import { decisionById } from '$lib/server/decisions/decisions';
import { sealCertificates } from '$lib/server/db/schema';
import { readStamp, type EvidenceStamp } from './documents';
import { gatherFacts } from './facts';
import { inspectSeal } from './inspect';

/** What our records say about a signing, without any personal data. */
export type ReferenceCheck =
	| { found: false }
	| {
			found: true;
			applicationId: number;
			officeId: number;
			outcome: 'accepted' | 'declined';
			decidedAt: Date;
			/** The whole trail re-verified now. */
			chainOk: boolean;
			chainCount: number;
			chainBrokenAt: number | null;
			/** The certificate hash as the records give it now. */
			contentHash: string;
	  };

/** The answer for an uploaded file. */
export type DocumentCheck =
	| { result: 'not-pdf' }
	| { result: 'unsealed' }
	| { result: 'tampered'; reason: string }
	| { result: 'foreign'; sealedBy: string; certSha256: string }
	| {
			result: 'genuine';
			kind: EvidenceStamp['kind'] | null;
			sealedAt: Date | null;
			/** Sealed with the key in use now, or one the portal used before. */
			currentKey: boolean;
			stamp: EvidenceStamp | null;
			records: ReferenceCheck;
			/** Whether the events the document saw are still the first events of the trail. */
			trailPrefixIntact: boolean | null;
			contentMatches: boolean | null;
	  };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function recordsOf(ctx: AppContext, reference: string) {
	if (!UUID.test(reference)) return null;
	const decision = await decisionById(ctx.db, reference);
	if (!decision) return null;
	try {
		return await gatherFacts(ctx, {
			officeId: decision.officeId,
			applicationId: decision.applicationId,
			audience: 'rep'
		});
	} catch {
		return null;
	}
}

function referenceCheck(facts: Awaited<ReturnType<typeof recordsOf>>): ReferenceCheck {
	if (!facts) return { found: false };
	return {
		found: true,
		applicationId: facts.applicationId,
		officeId: facts.officeId,
		outcome: facts.outcome,
		decidedAt: facts.decidedAt,
		chainOk: facts.chain.ok,
		chainCount: facts.chain.count,
		chainBrokenAt: facts.chain.ok ? null : facts.chain.brokenAt,
		contentHash: facts.contentHash
	};
}

/** `/verify/<reference>`: is this signing in our records, and does its trail still verify? */
export async function verifyReference(ctx: AppContext, reference: string): Promise<ReferenceCheck> {
	return referenceCheck(await recordsOf(ctx, reference.toLowerCase()));
}

/**
 * An uploaded certificate or signed copy: first the file alone (is it a PDF, is its seal intact,
 * is the sealing certificate one of ours), then, for a genuine one, our records (does the
 * signing it names exist, does its trail verify, do the records still give the same
 * certificate hash, and are the events the document was made from still there unchanged).
 */
export async function verifyDocument(ctx: AppContext, bytes: Uint8Array): Promise<DocumentCheck> {
	const seal = await inspectSeal(bytes);
	if (seal.kind === 'not-pdf') return { result: 'not-pdf' };
	if (seal.kind === 'unsealed') return { result: 'unsealed' };
	if (seal.kind === 'broken') return { result: 'tampered', reason: seal.reason };
	const [known] = await ctx.db
		.select({ sha256: sealCertificates.sha256 })
		.from(sealCertificates)
		.where(eq(sealCertificates.sha256, seal.certSha256));
	if (!known) return { result: 'foreign', sealedBy: seal.subject, certSha256: seal.certSha256 };

	let stamp: EvidenceStamp | null = null;
	try {
		stamp = readStamp(await PDFDocument.load(bytes, { updateMetadata: false }));
	} catch {
		stamp = null;
	}
	const facts = stamp ? await recordsOf(ctx, stamp.reference) : null;
	const records = referenceCheck(facts);
	let trailPrefixIntact: boolean | null = null;
	if (facts?.trail && stamp) {
		const seen = facts.trail[stamp.chainCount - 1];
		trailPrefixIntact =
			stamp.chainCount === 0 ? true : seen !== undefined && seen.hash === stamp.chainHead;
	}
	return {
		result: 'genuine',
		kind: stamp?.kind ?? null,
		sealedAt: seal.signedAt,
		currentKey: seal.certSha256 === (await ctx.seal()).certSha256,
		stamp,
		records,
		trailPrefixIntact,
		contentMatches: facts && stamp ? facts.contentHash === stamp.contentHash : null
	};
}
