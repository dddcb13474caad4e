import { and, eq, inArray } from 'drizzle-orm';
import type { AuditEvent } from '$lib/server/audit/audit';
import { capital } from '$lib/text';
import { carriedFrom, durationWords, typeLabel } from '$lib/server/audit/labels';
import type { Db } from '$lib/server/db';
import { reps } from '$lib/server/db/schema';
import { isUuid } from '$lib/server/db/uuid';
import { describeDevice } from '$lib/server/evidence/words';
import { BY_OPERATOR_API, BY_SANDBOX_DEMO, BY_START_DEMO } from '$lib/server/links/links';
import { officeTime, shownTime, type ShownTime } from './time';

export interface TimelineEntry {
	/** Unique on the page: the event's place in the chain, or the link an expiry is of. */
	key: string;
	when: ShownTime;
	title: string;
	detail: string | null;
	/**
	 * Who acted: the rep, the operator's systems, the merchant (with their address and browser, and
	 * which session when a link started more than one), the portal.
	 */
	by: string;
}

type Data = Record<string, unknown>;
const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);

/** Who decided: the names typed, and whether they are not the owner's (see recordDecision). */
function by(words: string, d: Data): string | null {
	const signer = text(d.signerName);
	const owner = text(d.ownerName);
	if (!signer) return null;
	return owner
		? `${words} ${signer}, not the owner the application names (${owner}), whom the identity questions were about`
		: `${words} ${signer}`;
}

function detail(e: AuditEvent, zone: string): string | null {
	const d = e.data as Data;
	const at = (v: unknown) => {
		const s = text(v);
		const date = s ? new Date(s) : null;
		return date && !Number.isNaN(date.getTime()) ? officeTime(date, zone) : null;
	};
	switch (e.type) {
		case 'link.created': {
			const to = text(d.emailedTo);
			const until = at(d.expiresAt);
			const made =
				d.createdBy === BY_SANDBOX_DEMO
					? 'A demo link, made from the portal’s start page (not emailed)'
					: d.createdBy === BY_START_DEMO
						? 'A demo link, printed when the portal started (not emailed)'
						: d.createdBy === BY_OPERATOR_API
							? 'Not emailed'
							: 'To copy and hand over (not emailed)';
			return `${to ? `For ${to}` : made}${until ? `; valid until ${until}` : ''}`;
		}
		case 'link.sent':
			return text(d.to) ? `Emailed to ${text(d.to)}` : null;
		case 'link.revoked': {
			const had = d.expired === true ? 'It had already expired; ' : '';
			const why =
				d.reason === 'replaced'
					? 'replaced by a newer link'
					: d.reason === 'in_person'
						? 'ended when the rep handed their device over for signing in person'
						: 'revoked by the rep';
			return had ? `${had}${why}` : capital(why);
		}
		case 'session.started':
		case 'session.handed_over':
			return inPersonDetail(d.inPerson);
		case 'device.locked':
			return d.reason === 'returned'
				? '“Return to rep” was pressed'
				: d.reason === 'finished'
					? 'After the decision'
					: d.reason === 'moved'
						? 'The signing was handed over on another device'
						: typeof d.idleSeconds === 'number'
							? `No touch for ${durationWords(d.idleSeconds)}`
							: 'The signing session went idle';
		case 'device.unlock_refused':
			return d.left === 0
				? 'Unlocking paused after too many wrong passwords'
				: typeof d.left === 'number'
					? `${d.left} more ${d.left === 1 ? 'try' : 'tries'} before unlocking pauses`
					: null;
		case 'terms.shown':
			return Array.isArray(d.sections) ? `${d.sections.length} sections shown` : null;
		case 'identity.started':
			return `${text(d.questions) ?? 'Some'} questions, ${text(d.timeLimitSeconds) ?? '?'} seconds to answer`;
		case 'identity.passed': {
			const from = carriedFrom(d.by);
			return from ? `Carried over from ${from}` : null;
		}
		case 'identity.failed':
			return d.reason === 'time limit passed'
				? 'The time ran out'
				: d.reason === 'link replaced' || d.reason === 'link revoked'
					? `The questions were still open when the link was ${d.reason === 'link replaced' ? 'replaced' : 'revoked'}; they count as a try`
					: d.reason === 'signing in person'
						? 'The questions were still open on the link when the rep’s device was handed over; they count as a try'
						: 'The answers did not match the bureau’s records';
		case 'identity.locked':
			return d.by === 'service'
				? 'Locked by the onboarding service'
				: at(d.until)
					? `Until ${at(d.until)}`
					: null;
		case 'identity.refused':
			return 'The merchant was turned away: identity was already confirmed on another link, which this one cannot carry over';
		case 'identity.unavailable':
			return 'The credit bureau did not answer; no try was used';
		case 'decision.accepted':
			return by('Signed by', d);
		case 'decision.declined':
			return [by('By', d), d.declineReasonGiven ? 'a reason was given (above)' : 'no reason given']
				.filter(Boolean)
				.join('; ');
		case 'decision.delivered':
			return text(d.merchantDecisionId)
				? `Decision number ${text(d.merchantDecisionId)}`
				: d.alreadyRecorded
					? 'The service already had it'
					: 'Received by the service';
		case 'decision.delivery_failed':
			return `Try ${text(d.attempt) ?? '?'} failed${text(d.status) ? ` (HTTP ${text(d.status)})` : ''}${at(d.retryAt) ? `; next try ${at(d.retryAt)}` : ''}`;
		case 'decision.rejected':
			return `Refused by the service${text(d.status) ? ` (HTTP ${text(d.status)})` : ''}`;
		default:
			return null;
	}
}

/** "In person; photo ID checked: driver's license ending 4321", from the rep's attestation. */
function inPersonDetail(value: unknown): string | null {
	if (value === null || typeof value !== 'object') return null;
	const p = value as Data;
	if (p.photoIdChecked !== true) return 'In person';
	const id = text(p.idType);
	const last4 = text(p.idLast4);
	const what = id ? `${id}${last4 ? ` ending ${last4}` : ''}` : last4 ? `ending ${last4}` : null;
	return `In person; photo ID checked${what ? `: ${what}` : ''}`;
}

/** What the rep does in person; the merchant does the rest of an in-person session's events. */
const REP_IN_PERSON = new Set(['session.started', 'session.handed_over', 'device.unlocked']);

/** What the portal does on its own in person: a lock for idleness or after the decision. */
const portalLock = (e: AuditEvent) =>
	e.type === 'device.locked' && (e.data as Data).reason !== 'returned';

/**
 * The merchant's sessions by link, numbered as they began, when there was more than one: a link
 * opened in two browsers (or by two people) reads as two sessions, not one merchant twice.
 */
function linkSessions(events: AuditEvent[]): ReadonlyMap<string, number> {
	const numbers = new Map<string, number>();
	for (const e of events) {
		if (e.channel === 'link' && e.sessionId && !e.rep && !numbers.has(e.sessionId)) {
			numbers.set(e.sessionId, numbers.size + 1);
		}
	}
	return numbers.size > 1 ? numbers : new Map();
}

/** "Merchant (session 2), from 203.0.113.9, Chrome 131.0 on Android", as far as each is known. */
function merchant(e: AuditEvent, sessions: ReadonlyMap<string, number>): string {
	const session = e.sessionId ? sessions.get(e.sessionId) : undefined;
	const who = session ? `Merchant (session ${session})` : 'Merchant';
	if (!e.ip) return who;
	return `${who}, from ${e.ip}${e.userAgent ? `, ${describeDevice(e.userAgent)}` : ''}`;
}

function actor(
	e: AuditEvent,
	repNames: ReadonlyMap<string, string>,
	sessions: ReadonlyMap<string, number>
): string {
	// A link the operator API made, or one it replaced (`by`).
	const d = e.data as Data;
	if (d.createdBy === BY_OPERATOR_API || d.by === BY_OPERATOR_API) return 'Operator API';
	if (d.createdBy === BY_SANDBOX_DEMO || d.by === BY_SANDBOX_DEMO) return 'Start page (demo)';
	if (d.createdBy === BY_START_DEMO || d.by === BY_START_DEMO) return 'Portal’s start (demo)';
	if (
		e.type.startsWith('decision.') &&
		e.type !== 'decision.accepted' &&
		e.type !== 'decision.declined'
	)
		return 'Portal';
	// What the worker did on its own, such as closing questions left past their time.
	if (portalLock(e) || d.closedBy === 'portal') return 'Portal';
	const rep = e.rep ? (repNames.get(e.rep) ?? e.rep) : null;
	// "Return to rep" is pressed by whoever holds the device, the merchant or the rep: the trail
	// names the device, not a person it can't know.
	if (rep && (e.type === 'device.locked' || e.type === 'device.unlock_refused'))
		return `On the device of ${rep}`;
	if (rep && e.channel === 'in_person' && e.sessionId && !REP_IN_PERSON.has(e.type)) {
		return `Merchant, on the device of ${rep}`;
	}
	if (rep) return rep;
	if (e.sessionId || e.type === 'link.opened') return merchant(e, sessions);
	return 'Portal';
}

/**
 * The names of the reps the trail records by their account's id (an in-person signing's events;
 * a link's events carry the rep's name already). The trail itself keeps the id: it is hashed
 * evidence. The rep's number tells two reps of one name apart within the office.
 */
export async function trailRepNames(
	db: Db,
	officeId: number,
	events: AuditEvent[]
): Promise<Map<string, string>> {
	const ids = [...new Set(events.map((e) => e.rep).filter((r) => r && isUuid(r)))] as string[];
	if (ids.length === 0) return new Map();
	const rows = await db
		.select({ id: reps.id, name: reps.name, repNo: reps.repNo })
		.from(reps)
		.where(and(eq(reps.officeId, officeId), inArray(reps.id, ids)));
	return new Map(rows.map((r) => [r.id, `${r.name} (rep ${r.repNo})`]));
}

/** What ends a link before its time: every link, once a decision or a decline is recorded. */
const ENDS_EVERY_LINK = new Set(['decision.accepted', 'decision.declined', 'decline.recorded']);

interface Expiry {
	linkId: string;
	at: Date;
	/** A session started on it in time and went on past it (signing/session.ts sessionIsOpen). */
	wentOn: boolean;
}

/**
 * When each link ran out: the trail has no event for it, since an expiry is a time, not an act.
 * A link whose `expiresAt` (its `link.created`) has passed, and that nothing ended before then:
 * revoked or replaced (`link.revoked`), or spent by a decision or a decline.
 */
function expiries(events: AuditEvent[], now: Date): Expiry[] {
	const out: Expiry[] = [];
	for (const created of events) {
		if (created.type !== 'link.created') continue;
		const d = created.data as Data;
		const linkId = text(d.linkId);
		const at = typeof d.expiresAt === 'string' ? new Date(d.expiresAt) : null;
		if (!linkId || !at || Number.isNaN(at.getTime()) || at > now) continue;
		const before = events.filter((e) => e.seq > created.seq && e.at < at);
		const ended = before.some(
			(e) =>
				ENDS_EVERY_LINK.has(e.type) ||
				(e.type === 'link.revoked' && (e.data as Data).linkId === linkId)
		);
		if (ended) continue;
		const sessions = new Set(
			before
				.filter((e) => e.type === 'session.started' && (e.data as Data).linkId === linkId)
				.map((e) => e.sessionId)
		);
		const wentOn = events.some((e) => e.at >= at && e.sessionId && sessions.has(e.sessionId));
		out.push({ linkId, at, wentOn });
	}
	return out;
}

/**
 * The audit trail as a rep reads it: newest first, times in the office's zone, in words, with
 * the moments links expired among the events (see expiries).
 */
export function timeline(
	events: AuditEvent[],
	zone: string,
	repNames: ReadonlyMap<string, string> = new Map(),
	now = new Date()
): TimelineEntry[] {
	const sessions = linkSessions(events);
	// To the second: a rep answering "when exactly?" reads it here as the certificate says it.
	const when = (at: Date) => shownTime(at, zone, { seconds: true });
	const entries = events.map((e) => ({
		at: e.at,
		entry: {
			key: `event-${e.seq}`,
			when: when(e.at),
			title: typeLabel(e.type),
			detail: detail(e, zone),
			by: actor(e, repNames, sessions)
		}
	}));
	for (const x of expiries(events, now)) {
		// After every event before it: the trail's order stands, the expiry goes between.
		const i = entries.findIndex((e) => e.at > x.at);
		entries.splice(i === -1 ? entries.length : i, 0, {
			at: x.at,
			entry: {
				key: `expired-${x.linkId}`,
				when: when(x.at),
				title: 'Signing link expired',
				detail: x.wentOn
					? 'From then on it opened nothing new; the merchant’s session started on it before then went on'
					: 'From then on it opened nothing',
				by: 'Portal'
			}
		});
	}
	return entries.map((e) => e.entry).reverse();
}
