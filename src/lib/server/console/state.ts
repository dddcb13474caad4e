import type {
	AttemptOutcome,
	Channel,
	DecisionStatus,
	LockReason,
	MailStatus
} from '$lib/server/db/schema';
import { handoverIdle } from '$lib/server/inperson/handover';
import { lostAt, lostTry, tryStanding } from '$lib/server/identity/tries';
import { currentStep, resumableOf, sessionIsOpen } from '$lib/server/signing/session';

/**
 * Where an application stands, for the rep's console: derived here, in one place, from what the
 * database records (links, sessions, identity attempts, the decision and a few audit events) and
 * the service's list status. Pure: the loader (facts.ts) reads, this decides.
 */

export interface LinkFact {
	id: string;
	email: string | null;
	createdAt: Date;
	expiresAt: Date;
	revokedAt: Date | null;
	usedAt: Date | null;
	/** Made by the operator's systems through the API, not by a rep in the console. */
	viaApi: boolean;
	/** Made for the demo, by the start page or `npm start` (the sandbox only: links.ts isDemoLink). */
	demo?: boolean;
	/** An emailed link's message in the outbox: whether it has gone out (null: not emailed). */
	mail?: LinkMail | null;
}

/** Where the link's email stands: the rep is told "Emailed" only once it has gone out. */
export interface LinkMail {
	status: MailStatus;
	sentAt: Date | null;
	/** Why the last attempt failed, in the outbox's words. */
	problem: string | null;
	/** The next try, while it waits after a failed one. */
	nextAt: Date | null;
}

export interface SessionFact {
	id: string;
	linkId: string | null;
	channel: Channel;
	createdAt: Date;
	lastSeenAt: Date;
	closedAt: Date | null;
	consentAt: Date | null;
	identityPassedAt: Date | null;
	/** Its pass was carried over from an earlier one (identity/attempts.ts), not answered in it. */
	carried?: boolean;
	decisionId: string | null;
	declineId: string | null;
	/** In person: the session's newest hand-over of a tablet to the merchant, if any. */
	tablet?: TabletFact | null;
}

/** A tablet handed to the merchant, as the console reads it (inperson/handover.ts keeps it). */
export interface TabletFact {
	/** The hand-over's id: a rep's page posts the one it showed (inperson/handover.ts). */
	id: string;
	/** Its last request: past the idle limit the tablet has locked itself, or will at its next. */
	lastSeenAt: Date;
	lockedAt: Date | null;
	lockReason: LockReason | null;
	/** Unlocked by the rep, or given up for a newer hand-over on the same tablet. */
	endedAt: Date | null;
}

/** A merchant's "I don't want to sign" before identity passed: the portal's record, no decision. */
export interface PortalDeclineFact {
	at: Date;
	reason: string | null;
}

export interface AttemptFact {
	/** The signing session that started it. */
	sessionId: string;
	startedAt: Date;
	deadlineAt: Date;
	/** When it closed (answers judged, time run out, void); null while open. */
	finishedAt: Date | null;
	outcome: AttemptOutcome;
	/** Its questions were shown (and are kept, encrypted, until it closes). */
	shown: boolean;
}

export interface DecisionFact {
	isAccepted: boolean;
	status: DecisionStatus;
	declineReason: string | null;
	attempts: number;
	lastError: string | null;
	createdAt: Date;
	deliveredAt: Date | null;
	nextAttemptAt: Date;
	/**
	 * The names typed, when they are not those of the owner the application names, whom the
	 * identity questions were about (recordDecision's audit event).
	 */
	otherSigner?: OtherSigner | null;
}

export interface OtherSigner {
	signer: string;
	owner: string;
}

/** The audit events the tables alone do not tell: a merchant turned away, a lock by the service. */
export interface EventFact {
	type: 'identity.refused' | 'identity.locked';
	at: Date;
	byService: boolean;
}

export interface ApplicationFacts {
	/** The service's list `Status` ("Pending Signature", "Signed", "Declined"). */
	serviceStatus: string;
	links: LinkFact[];
	sessions: SessionFact[];
	attempts: AttemptFact[];
	decision: DecisionFact | null;
	/** Declines recorded by the portal before identity (the service takes none without an SSN). */
	declines: PortalDeclineFact[];
	events: EventFact[];
}

export interface StateRules {
	sessionIdleMinutes: number;
	/** How long a tablet in the merchant's hands may go untouched before it locks itself. */
	tabletIdleSeconds: number;
	identityMaxAttempts: number;
	identityWindowHours: number;
}

export const STATE_KINDS = [
	'not_sent',
	'link_sent',
	'opened',
	'in_progress',
	'identity_passed',
	'identity_locked',
	'signed',
	'declined',
	'delivering',
	'delivery_failed',
	'link_expired'
] as const;
export type StateKind = (typeof STATE_KINDS)[number];
export type Step = 'terms' | 'identity' | 'sign';
const STEPS: Step[] = ['terms', 'identity', 'sign'];
const byStep = (a: Step, b: Step) => STEPS.indexOf(a) - STEPS.indexOf(b);

export interface CurrentLink {
	id: string;
	email: string | null;
	createdAt: Date;
	expiresAt: Date;
	expired: boolean;
	/** See LinkFact. */
	viaApi: boolean;
	demo?: boolean;
	mail: LinkMail | null;
}

export interface ConsoleState {
	kind: StateKind;
	/** The merchant's step: where they are (in progress) or stopped (opened). */
	step: Step | null;
	/** When the application got to this state, where known. */
	at: Date | null;
	/** When a lock lifts, or the current link expires. */
	until: Date | null;
	/** A decline's reason, or why delivery failed. */
	reason: string | null;
	/** Decisions only: accepted (true) or declined; null otherwise. */
	accepted: boolean | null;
	/** A decision's signer, when not the owner the application names (see DecisionFact). */
	otherSigner?: OtherSigner | null;
	/** The link a merchant could use now (neither revoked nor used), expired or not. */
	link: CurrentLink | null;
	/**
	 * The identity check passed, and on which link (so a new one to that address carries it);
	 * `carriesTo`, the address of the latest pass made on an emailed link, if any: a new link to it
	 * carries a pass over, whichever pass was last (none can when it is null).
	 */
	identityPassed: {
		at: Date;
		linkId: string | null;
		email: string | null;
		carriesTo: string | null;
	} | null;
	/**
	 * The known dead end: identity passed on a link the current one cannot carry it from, so the
	 * merchant is sent to the rep; `refusedAt` once a merchant was actually turned away.
	 */
	deadEnd: { refusedAt: Date | null } | null;
	/** A decision is on record (here or at the service): no more links. */
	decided: boolean;
	/** The state is an in-person session's (on the rep's tablet, or paused there). */
	inPerson: boolean;
	/** Paused in person because the tablet was left idle (not taken back by the rep). */
	tabletIdle: boolean;
	/**
	 * In progress in person: the hand-over whose tablet is in the merchant's hands now. A rep's
	 * "Hand to merchant" posts it back, so a tablet handed over since is not taken unseen.
	 */
	tablet?: string | null;
	/**
	 * Identity questions on the merchant's screen, until when: in progress, whether they were
	 * shown at all ("identity questions", not only the step); paused in person, that their time
	 * runs on while the rep has the tablet, and the try counts if they are not answered by then.
	 */
	questionsUntil?: Date | null;
	/**
	 * At the identity step, without questions on the screen, after a try ended without a pass (its
	 * time ran out while the rep had the tablet, a wrong answer) and before any pass: the tries
	 * left in the window, of how many. In progress, paused in person, or opened on a link and left.
	 */
	triesLeft?: { left: number; max: number } | null;
	/**
	 * In progress on the merchant's own device, but not seen for QUIET_MINUTES: their session is
	 * still open (they can go on where they stopped), but they may well have left.
	 */
	quiet: boolean;
}

/** How long a merchant unseen on their own device is still said to be "on it now". */
export const QUIET_MINUTES = 5;

const sameEmail = (a: string | null | undefined, b: string | null | undefined) =>
	!!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase();

const latest = <T>(items: T[], at: (t: T) => Date | null) =>
	items.reduce<T | undefined>((best, t) => {
		const time = at(t);
		return time && (!best || time.getTime() > (at(best)?.getTime() ?? 0)) ? t : best;
	}, undefined);

/** The application's tries, as the portal judges them (identity/attempts.ts): used and lock. */
function standing(f: ApplicationFacts, rules: StateRules, now: Date) {
	// A try abandoned with its questions on the screen counts once its time is up, before
	// anyone closes it.
	const lost = f.attempts.filter((a) => lostTry(a, now)).map((a) => lostAt(a).getTime());
	return tryStanding(lost, now.getTime(), {
		max: rules.identityMaxAttempts,
		windowMs: rules.identityWindowHours * 3_600_000
	});
}

/**
 * Once a try has ended without a pass (and no lock): the tries left in the window, of how many.
 * None once identity has passed: no more questions are asked (a link that cannot carry the pass
 * sends the merchant to the rep).
 */
function tries(f: ApplicationFacts, rules: StateRules, now: Date) {
	if (f.sessions.some((s) => s.identityPassedAt)) return null;
	const max = rules.identityMaxAttempts;
	const { used } = standing(f, rules, now);
	return used > 0 ? { left: max - used, max } : null;
}

/** The deadline of identity questions shown in a session and still open, if there are some. */
const openQuestions = (f: ApplicationFacts, sessionId: string, now: Date) =>
	f.attempts.find(
		(a) =>
			a.sessionId === sessionId &&
			a.outcome === 'pending' &&
			a.shown &&
			a.deadlineAt.getTime() > now.getTime()
	)?.deadlineAt ?? null;

/** When the identity lock lifts, if the application is locked now. */
export function identityLock(f: ApplicationFacts, rules: StateRules, now: Date): Date | null {
	const windowMs = rules.identityWindowHours * 3_600_000;
	const byCount = standing(f, rules, now).lockedUntil;
	const byService = f.events
		.filter(
			(e) =>
				e.type === 'identity.locked' && e.byService && e.at.getTime() > now.getTime() - windowMs
		)
		.map((e) => e.at.getTime() + windowMs);
	const until = Math.max(byCount ?? 0, ...byService);
	return until > now.getTime() ? new Date(until) : null;
}

function decisionState(d: DecisionFact): Pick<ConsoleState, 'kind' | 'at' | 'reason' | 'until'> {
	if (d.status === 'delivered') {
		return {
			kind: d.isAccepted ? 'signed' : 'declined',
			at: d.createdAt,
			reason: d.isAccepted ? null : d.declineReason,
			until: null
		};
	}
	if (d.status === 'rejected') {
		return { kind: 'delivery_failed', at: d.createdAt, reason: d.lastError, until: null };
	}
	// Pending: recorded, on its way; a failed try shows as the reason and the next try's time.
	return {
		kind: 'delivering',
		at: d.createdAt,
		reason: d.attempts > 0 ? d.lastError : null,
		until: d.attempts > 0 ? d.nextAttemptAt : null
	};
}

export function deriveState(f: ApplicationFacts, rules: StateRules, now: Date): ConsoleState {
	const linkById = new Map(f.links.map((l) => [l.id, l]));
	const usable = latest(
		f.links.filter((l) => !l.revokedAt && !l.usedAt),
		(l) => l.createdAt
	);
	const link: CurrentLink | null = usable
		? {
				id: usable.id,
				email: usable.email,
				createdAt: usable.createdAt,
				expiresAt: usable.expiresAt,
				expired: usable.expiresAt.getTime() <= now.getTime(),
				viaApi: usable.viaApi,
				...(usable.demo ? { demo: true } : {}),
				mail: usable.mail ?? null
			}
		: null;

	// Where the questions were answered: a pass carried into a later session (a hand-over after
	// a pass on a link) is not one, and would say "in person" of a pass made on the link.
	const passes = f.sessions.filter((s) => s.identityPassedAt && !s.carried);
	const lastPass = latest(passes, (s) => s.identityPassedAt);
	const emailOf = (s: { linkId: string | null }) =>
		s.linkId ? (linkById.get(s.linkId)?.email ?? null) : null;
	const lastEmailed = latest(
		passes.filter((s) => emailOf(s)),
		(s) => s.identityPassedAt
	);
	const identityPassed = lastPass
		? {
				at: lastPass.identityPassedAt!,
				linkId: lastPass.linkId,
				email: emailOf(lastPass),
				carriesTo: lastEmailed ? emailOf(lastEmailed) : null
			}
		: null;

	const serviceDecided = ['signed', 'declined'].includes(f.serviceStatus.trim().toLowerCase());
	const decided = f.decision !== null || serviceDecided;

	// The same rule as identity/attempts.ts `earlierPass`: same link, or a link to the same address.
	const carries = (l: CurrentLink) =>
		passes.some(
			(s) =>
				s.linkId === l.id || sameEmail(s.linkId ? linkById.get(s.linkId)?.email : null, l.email)
		);
	const refused = latest(
		f.events.filter(
			(e) => e.type === 'identity.refused' && (!identityPassed || e.at >= identityPassed.at)
		),
		(e) => e.at
	);
	const deadEnd =
		identityPassed && !decided && ((link && !carries(link)) || refused)
			? { refusedAt: refused?.at ?? null }
			: null;

	const base = {
		step: null,
		at: null,
		until: null,
		reason: null,
		accepted: f.decision?.isAccepted ?? null,
		link,
		identityPassed,
		deadEnd,
		decided,
		inPerson: false,
		tabletIdle: false,
		quiet: false
	} satisfies Omit<ConsoleState, 'kind'>;

	if (f.decision) {
		return { ...base, ...decisionState(f.decision), otherSigner: f.decision.otherSigner ?? null };
	}
	if (serviceDecided) {
		const accepted = f.serviceStatus.trim().toLowerCase() === 'signed';
		return { ...base, kind: accepted ? 'signed' : 'declined', accepted };
	}

	// Declined before identity: ends the link it came through, so it stands until a newer link,
	// or a newer session (a hand-over in person; the declining session itself has its decline).
	const declined = latest(f.declines, (d) => d.at);
	const reopened = (at: Date) =>
		(link && link.createdAt.getTime() > at.getTime()) ||
		f.sessions.some((s) => !s.declineId && s.createdAt.getTime() > at.getTime());
	const lockedUntil = identityLock(f, rules, now);
	if (declined && !reopened(declined.at)) {
		// `until`: the identity questions locked still (tries used before the decline), which a new
		// link or a hand-over would meet.
		return {
			...base,
			kind: 'declined',
			at: declined.at,
			reason: declined.reason,
			accepted: false,
			until: lockedUntil
		};
	}

	// A session that ended in a decline is over, however recently it was seen; an in-person
	// session is live only while the tablet is in the merchant's hands: handed over, not taken
	// back, and not left idle past the limit (the tablet locks itself; the server learns of it at
	// the tablet's next request, so the idle rule is applied here as handover.ts applies it then).
	const idle = (t: TabletFact) =>
		t.lockReason === 'idle' ||
		(!t.lockedAt && !t.endedAt && handoverIdle(t.lastSeenAt, rules.tabletIdleSeconds, now));
	const inHands = (t: TabletFact | null | undefined) =>
		!!t && !t.lockedAt && !t.endedAt && !idle(t);
	const open = f.sessions.filter(
		(s) =>
			!s.declineId &&
			(s.channel !== 'in_person' || inHands(s.tablet)) &&
			sessionIsOpen(
				s,
				s.linkId ? (linkById.get(s.linkId)?.revokedAt ?? null) : null,
				rules.sessionIdleMinutes,
				now
			)
	);
	const live = latest(open, (s) => s.lastSeenAt);
	if (live) {
		const step = currentStep(live) as Step;
		const inPerson = live.channel === 'in_person';
		const tablet = inPerson ? (live.tablet?.id ?? null) : null;
		if (step === 'identity' && lockedUntil) {
			const at = live.lastSeenAt;
			return { ...base, kind: 'identity_locked', step, until: lockedUntil, at, inPerson, tablet };
		}
		// An in-person session is live only while the tablet is in hands (above): never quiet.
		const quiet = !inPerson && now.getTime() - live.lastSeenAt.getTime() > QUIET_MINUTES * 60_000;
		const questionsUntil = step === 'identity' ? openQuestions(f, live.id, now) : null;
		// Back at the identity step after a try without a pass: the rep sees how many are left
		// before one more miss locks the questions.
		const triesLeft = step === 'identity' && !questionsUntil ? tries(f, rules, now) : null;
		return {
			...base,
			kind: 'in_progress',
			step,
			at: live.lastSeenAt,
			inPerson,
			tablet,
			quiet,
			questionsUntil,
			triesLeft
		};
	}
	if (identityPassed) {
		// Taken back (or left idle) after the pass, an in-person session still open: the next
		// hand-over picks it up where the merchant left off (inperson/handover.ts, by one rule).
		const resumes = resumableOf(f.sessions, rules.sessionIdleMinutes, now) !== null;
		return {
			...base,
			kind: 'identity_passed',
			step: 'sign',
			at: identityPassed.at,
			inPerson: resumes
		};
	}
	if (lockedUntil)
		return { ...base, kind: 'identity_locked', step: 'identity', until: lockedUntil };
	// Taken back from the merchant (or idle), newer than any link: where they paused. Not when the
	// newest in-person session ended in a decline (a link made since, then revoked): it has no step
	// to be paused at, and an older one it followed was not picked up by that hand-over either.
	const newestInPerson = latest(
		f.sessions.filter((s) => s.channel === 'in_person'),
		(s) => s.lastSeenAt
	);
	const paused = newestInPerson?.declineId ? null : newestInPerson;
	if (paused && (!link || paused.createdAt > link.createdAt)) {
		const step = currentStep(paused) as Step;
		const tabletIdle = !!paused.tablet && idle(paused.tablet);
		// Left idle: the merchant's last touch is the tablet's, not a later request of the locked
		// tablet that found the session.
		const at = tabletIdle ? paused.tablet!.lastSeenAt : paused.lastSeenAt;
		const questionsUntil = openQuestions(f, paused.id, now);
		const triesLeft = step === 'identity' && !questionsUntil ? tries(f, rules, now) : null;
		return {
			...base,
			kind: 'opened',
			step,
			at,
			inPerson: true,
			tabletIdle,
			questionsUntil,
			triesLeft
		};
	}
	if (link) {
		if (link.expired) return { ...base, kind: 'link_expired', at: link.expiresAt };
		const started = f.sessions.filter((s) => s.linkId === link.id);
		if (started.length > 0) {
			// Opened, nobody in it now: how far the merchant got, and when they were last there.
			const step = started
				.map((s) => currentStep(s) as Step)
				.sort(byStep)
				.at(-1)!;
			const at = latest(started, (s) => s.lastSeenAt)!.lastSeenAt;
			const asking = started.some((s) => openQuestions(f, s.id, now));
			const triesLeft = step === 'identity' && !asking ? tries(f, rules, now) : null;
			return { ...base, kind: 'opened', step, at, triesLeft };
		}
		return { ...base, kind: 'link_sent', at: link.createdAt, until: link.expiresAt };
	}
	const revoked = latest(f.links, (l) => l.revokedAt);
	return { ...base, kind: 'not_sent', at: revoked?.revokedAt ?? null };
}

/**
 * When the identity questions unlock, if they are locked now: the state's own lock, or one that
 * outlasts a decline before identity (a new link or a hand-over would stop at it).
 */
export function identityLockedUntil(state: ConsoleState): Date | null {
	if (state.kind === 'identity_locked') return state.until;
	return state.kind === 'declined' && !state.decided ? state.until : null;
}
