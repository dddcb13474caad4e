import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AppContext } from '$lib/server/app';
import { listAudit, verifyAuditChain, type AuditEvent } from '$lib/server/audit/audit';
import { canonicalJson } from '$lib/server/audit/canonical';
import { decisionFor } from '$lib/server/decisions/decisions';
import { signingSessions, type PresentedSection } from '$lib/server/db/schema';
import { BY_OPERATOR_API, isDemoLink } from '$lib/server/links/links';
import { CONSENT_SHA256 } from '$lib/server/signing/terms';
import { describeDevice } from './words';

/**
 * What the certificate and the signed copy say, gathered from the decision, its signing session
 * and the application's audit trail. Only the trail's own words are used for what happened, so
 * what is printed can be checked against the hash chain.
 *
 * ## The session.started event: link or in person
 *
 * A signing session's `session.started` audit event names how it began; the certificate prints
 * the channel from it:
 *
 * - emailed link: `data: { linkId: string }`;
 * - in person, on a rep's device:
 *   `data: { inPerson: { repId: string, repNo: number | string, repName: string,
 *   photoIdChecked: true, idType: string | null, idLast4: string | null } }`, where `idType` is
 *   the kind of photo ID the rep checked ("Driver's license") and `idLast4` at most its last four
 *   characters. The event's `channel` is `in_person` and its `rep` the rep's id. A later
 *   hand-over of the same session (`session.handed_over`, the same `data`) records the check
 *   made then; the certificate prints the last one before the decision.
 */

export type Audience = 'merchant' | 'rep';

export interface InPerson {
	repId: string | null;
	repNo: string | null;
	repName: string | null;
	photoIdChecked: boolean;
	idType: string | null;
	idLast4: string | null;
}

export type Channel =
	| {
			kind: 'link';
			emailedTo: string | null;
			/** Who made a link the portal did not email: a rep (to copy), the operator API, the demo. */
			madeBy: 'rep' | 'operator' | 'demo' | null;
	  }
	| { kind: 'in_person'; inPerson: InPerson };

function linkMaker(createdBy: string | null): 'rep' | 'operator' | 'demo' | null {
	if (createdBy?.startsWith('rep:')) return 'rep';
	if (createdBy === BY_OPERATOR_API) return 'operator';
	if (isDemoLink(createdBy)) return 'demo';
	return null;
}

/** The consent's document row, which the signed copy prints and attaches. */
export const CONSENT_TITLE = 'Consent to electronic records';

/** The key step of the identity pass (certificate.ts names one from an earlier session). */
export const IDENTITY_STEP = 'Identity verified';

export interface KeyStep {
	label: string;
	at: Date;
}

export interface PresentedDocument {
	title: string;
	/**
	 * SHA-256 of the bytes kept from the signing (a section's sanitized HTML, the consent's text,
	 * the application PDF as the service gave it; the signed copy attaches each); null when it was
	 * not recorded.
	 */
	sha256: string | null;
	/** Accepted, pages, or why there is no hash. */
	note: string;
}

export interface IdentityFacts {
	/** Which try of the application's passed (1 = the first). */
	attempt: number;
	questionSetId: string | null;
	at: Date;
	/** Passed in an earlier session of the same link, before this one. */
	earlierSession: boolean;
}

export interface EvidenceFacts {
	officeId: number;
	applicationId: number;
	/** The portal's decision id: the public reference of the signing, printed and in /verify. */
	reference: string;
	/** The signing session that decided. */
	sessionId: string;
	/** MerchantDecisionID, once the service has assigned it. */
	serviceDecisionId: number | null;
	deliveryStatus: 'pending' | 'delivered' | 'rejected';
	businessName: string;
	signerName: string;
	/** The owner the application names, when the signer typed other names (see recordDecision). */
	ownerName: string | null;
	/**
	 * Where the signing session's identity pass was carried over from (its event's `by`), when it
	 * was. Not in the content hash: documents made before it was recorded still verify.
	 */
	identityCarriedBy: string | null;
	signerEmail: string;
	signature: string | null;
	outcome: 'accepted' | 'declined';
	decidedAt: Date;
	channel: Channel;
	identity: IdentityFacts | null;
	steps: KeyStep[];
	ip: string | null;
	userAgent: string | null;
	device: string;
	documents: PresentedDocument[];
	applicationPdf: { sha256: string; pages: number } | null;
	/** Each presented section with whether it was accepted. */
	sections: { title: string; accepted: boolean }[];
	/** The decision's audit event: its place in the chain, which commits to all before it. */
	decisionEvent: { seq: number; hash: string };
	chain: Awaited<ReturnType<typeof verifyAuditChain>>;
	/** The signing session's events (the timeline). */
	sessionEvents: AuditEvent[];
	/** The whole trail, for the rep's and operator's copy only. */
	trail: AuditEvent[] | null;
	/** SHA-256 of the canonical content fixed at the decision (see `contentHash`). */
	contentHash: string;
	/**
	 * What follows is printed but not in the content hash (documents made before it was printed
	 * still verify): the service's version of its acceptance language as shown, the reason a
	 * decline gave (typed for the rep), how many other signing sessions the application had, when
	 * the session's link expired if it did while the session went on, and the hand-overs after the
	 * first (see below).
	 */
	serviceVersion: string | null;
	declineReason: string | null;
	otherSessions: number;
	/**
	 * The session's link expired after the session started on it and before the decision: the
	 * portal lets a session started in time be finished (signing/session.ts sessionIsOpen), and a
	 * reader who sees the link's expiry in the trail is told so.
	 */
	linkExpiredMidway: Date | null;
	/**
	 * When the rep handed the device to the signer again in this session (after Return to rep or
	 * the idle lock), before the decision: each a check of the photo ID, the last of which the
	 * certificate prints (`channel`).
	 */
	handedOverAgain: Date[];
}

export class EvidenceNotFoundError extends Error {
	constructor() {
		super('No decision is recorded for this application.');
		this.name = 'EvidenceNotFoundError';
	}
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const DECISION_TYPES = ['decision.accepted', 'decision.declined'];

/** The rep's attestation an in-person start or hand-over carries in its data, if any. */
export function inPersonOf(data: Record<string, unknown>): InPerson | null {
	const p = data.inPerson;
	if (p === null || typeof p !== 'object') return null;
	const o = p as Record<string, unknown>;
	return {
		repId: str(o.repId),
		repNo: o.repNo == null ? null : String(o.repNo),
		repName: str(o.repName),
		photoIdChecked: o.photoIdChecked === true,
		idType: str(o.idType),
		idLast4: str(o.idLast4)?.slice(-4) ?? null
	};
}

/**
 * Which try passed: tries started in the application before the passing answer, 1-based; and,
 * for a pass carried over, where from (the session's pass event's `by`, kept out of the hash).
 */
function identityOf(
	trail: AuditEvent[],
	sessionId: string,
	before: number
): { facts: IdentityFacts; carriedBy: string | null } | null {
	const passes = trail.filter((e) => e.type === 'identity.passed' && e.seq < before);
	const own = passes.filter((e) => e.sessionId === sessionId).at(-1);
	if (!own) return null;
	// "Passed in an earlier session on this link": the try that passed is the last real one.
	const real = str(own.data.questionSetId)
		? own
		: passes.filter((e) => str(e.data.questionSetId) && e.seq < own.seq).at(-1);
	const anchor = real ?? own;
	return {
		facts: {
			attempt: trail.filter((e) => e.type === 'identity.started' && e.seq < anchor.seq).length,
			questionSetId: str(anchor.data.questionSetId),
			at: anchor.at,
			earlierSession: anchor !== own
		},
		carriedBy: anchor !== own ? str(own.data.by) : null
	};
}

/**
 * The part of the facts fixed once the decision is recorded, in canonical JSON: its SHA-256 is
 * the certificate's hash printed on the signed copy. A certificate made again later (a new
 * seal time, a longer trail, the service's decision number) keeps the same hash as long as the
 * records of the signing are unchanged; the decision event's hash anchors it in the chain.
 */
export function contentHash(f: Omit<EvidenceFacts, 'contentHash'>): string {
	const fixed = {
		v: 1,
		officeId: f.officeId,
		applicationId: f.applicationId,
		reference: f.reference,
		businessName: f.businessName,
		signer: { name: f.signerName, email: f.signerEmail, signature: f.signature },
		outcome: f.outcome,
		decidedAt: f.decidedAt.toISOString(),
		channel: f.channel,
		identity: f.identity && { ...f.identity, at: f.identity.at.toISOString() },
		steps: f.steps
			.filter((s) => s.at.getTime() <= f.decidedAt.getTime())
			.map((s) => ({ label: s.label, at: s.at.toISOString() })),
		ip: f.ip,
		userAgent: f.userAgent,
		documents: f.documents,
		sections: f.sections,
		decisionEvent: f.decisionEvent
	};
	return createHash('sha256').update(canonicalJson(fixed), 'utf8').digest('hex');
}

export interface FactsRequest {
	officeId: number;
	applicationId: number;
	audience: Audience;
	/** The merchant's session (defaults to the one that decided). */
	sessionId?: string;
}

export async function gatherFacts(ctx: AppContext, req: FactsRequest): Promise<EvidenceFacts> {
	const decision = await decisionFor(ctx.db, req.officeId, req.applicationId);
	if (!decision) throw new EvidenceNotFoundError();
	const [[session], trail, chain] = await Promise.all([
		ctx.db.select().from(signingSessions).where(eq(signingSessions.id, decision.sessionId)),
		listAudit(ctx.db, req.officeId, req.applicationId),
		verifyAuditChain(ctx.db, req.officeId, req.applicationId)
	]);
	const sessionId = decision.sessionId;
	const decided = trail.find(
		(e) => DECISION_TYPES.includes(e.type) && e.data.decisionId === decision.id
	);
	if (!decided) throw new EvidenceNotFoundError();
	const own = trail.filter((e) => e.sessionId === sessionId);
	const ownBefore = (type: string) => own.filter((e) => e.type === type && e.seq < decided.seq);
	const started = ownBefore('session.started').at(-1);
	// A tablet handed over again (after the rep unlocked it) carries the rep's check made then:
	// the merchant went on, and decided, under the last one.
	const attested = [...ownBefore('session.started'), ...ownBefore('session.handed_over')]
		.sort((a, b) => a.seq - b.seq)
		.at(-1);
	const inPerson = attested ? inPersonOf(attested.data) : null;
	const linkId = str(started?.data.linkId) ?? session?.linkId ?? null;
	const linkCreated = trail.find((e) => e.type === 'link.created' && e.data.linkId === linkId);
	// Older link.sent events name no link: the first one after the link was created is its own.
	const linkSent = linkCreated
		? trail.find(
				(e) =>
					e.type === 'link.sent' &&
					e.seq > linkCreated.seq &&
					(e.data.linkId === undefined || e.data.linkId === linkId)
			)
		: undefined;
	const channel: Channel = inPerson
		? { kind: 'in_person', inPerson }
		: {
				kind: 'link',
				emailedTo: str(linkSent?.data.to) ?? str(linkCreated?.data.emailedTo),
				madeBy: linkMaker(str(linkCreated?.data.createdBy))
			};
	const terms = ownBefore('terms.shown').at(-1);
	const consent = ownBefore('consent.given').at(-1);
	const pass = identityOf(trail, sessionId, decided.seq);
	const identity = pass?.facts ?? null;
	const delivered = trail.find(
		(e) => e.type === 'decision.delivered' && e.data.decisionId === decision.id
	);

	const d = decided.data;
	const shown = (
		Array.isArray(d.sectionsShown) ? d.sectionsShown : (terms?.data.sections ?? [])
	) as PresentedSection[] | [];
	const accepted = (d.sectionsAccepted ?? {}) as Record<string, boolean>;
	const pdf = d.applicationPdf as { sha256: string; pages: number } | null | undefined;
	const consentSha = str(consent?.data.consentSha256) ?? CONSENT_SHA256;
	const documents: PresentedDocument[] = [
		...shown.map((s) => ({
			title: s.title,
			sha256: s.sha256,
			note: accepted[s.key] ? 'accepted' : 'not accepted'
		})),
		{
			title: CONSENT_TITLE,
			sha256: consent ? consentSha : null,
			note: consent ? 'agreed' : 'not given in this session'
		},
		{
			title: 'Application PDF',
			sha256: pdf?.sha256 ?? null,
			note: pdf
				? `${pdf.pages} page${pdf.pages === 1 ? '' : 's'}`
				: 'not recorded: the service could not provide it at signing'
		}
	];
	const steps: KeyStep[] = [];
	const step = (label: string, e: { at: Date } | undefined | null) => {
		if (e) steps.push({ label, at: e.at });
	};
	if (!inPerson) {
		step('Signing link created', linkCreated);
		step('Signing link emailed', linkSent);
	}
	step(inPerson ? 'In-person signing started' : 'Link opened, session started', started);
	step('Terms shown', terms);
	step('Consent to electronic records', consent);
	step(IDENTITY_STEP, identity);
	step(decision.isAccepted ? 'Accepted and signed' : 'Declined', decided);
	step('Delivered to the onboarding service', delivered);

	const body = decision.body;
	const otherSessions = new Set(
		trail
			.filter(
				(e) =>
					e.type === 'session.started' &&
					e.seq < decided.seq &&
					e.sessionId &&
					e.sessionId !== sessionId
			)
			.map((e) => e.sessionId)
	).size;
	const linkExpiry =
		typeof linkCreated?.data.expiresAt === 'string' ? new Date(linkCreated.data.expiresAt) : null;
	const linkExpiredMidway =
		!inPerson && started && linkExpiry && started.at < linkExpiry && linkExpiry < decided.at
			? linkExpiry
			: null;
	const facts: Omit<EvidenceFacts, 'contentHash'> = {
		officeId: req.officeId,
		applicationId: req.applicationId,
		reference: decision.id,
		sessionId,
		serviceDecisionId: decision.merchantDecisionId,
		deliveryStatus: decision.status,
		businessName: session?.businessName ?? `Application ${req.applicationId}`,
		// A trail from before the decision recorded the signer's name: built as it was then, not
		// with fullName, which trims; the certificates made from it hash this text (contentHash),
		// and /verify compares that hash with the records.
		signerName:
			str(d.signerName) ?? `${String(body.MerchantFirstName)} ${String(body.MerchantLastName)}`,
		ownerName: str(d.ownerName),
		identityCarriedBy: pass?.carriedBy ?? null,
		signerEmail: str(d.email) ?? String(body.MerchantEmail ?? ''),
		signature: str(d.signature),
		outcome: decision.isAccepted ? 'accepted' : 'declined',
		decidedAt: decided.at,
		channel,
		identity,
		steps,
		ip: decided.ip,
		userAgent: decided.userAgent,
		device: describeDevice(decided.userAgent),
		documents,
		applicationPdf: pdf ?? null,
		sections: shown.map((s) => ({ title: s.title, accepted: accepted[s.key] === true })),
		decisionEvent: { seq: decided.seq, hash: decided.hash },
		chain,
		sessionEvents: trail.filter((e) => e.sessionId === (req.sessionId ?? sessionId)),
		trail: req.audience === 'rep' ? trail : null,
		serviceVersion: str(terms?.data.serviceVersion),
		declineReason: decision.isAccepted ? null : str(decision.declineReason),
		otherSessions,
		linkExpiredMidway,
		handedOverAgain: ownBefore('session.handed_over').map((e) => e.at)
	};
	return { ...facts, contentHash: contentHash(facts) };
}
