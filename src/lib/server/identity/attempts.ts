import {
	and,
	desc,
	eq,
	gt,
	inArray,
	isNotNull,
	lt,
	ne,
	or,
	getTableColumns,
	sql,
	type Column,
	type Placeholder
} from 'drizzle-orm';
import type { AppContext } from '$lib/server/app';
import { appendAudit, holdApplication } from '$lib/server/audit/audit';
import { decrypt, encrypt } from '$lib/server/crypto/secretbox';
import type { Tx } from '$lib/server/db';
import { preparedPer } from '$lib/server/db/prepared';
import {
	identityAttempts,
	type Channel,
	signingLinks,
	signingSessions,
	type AttemptOutcome
} from '$lib/server/db/schema';
import type { RequestMeta } from '$lib/server/http/meta';
import { notifyRep } from '$lib/server/mail/notes';
import { OnboardingError, type IdentityQuestionSet } from '$lib/server/onboarding';
import { newSessionSecret, type SigningSession } from '$lib/server/signing/session';
import { sessionEvent } from '$lib/server/signing/event';
import { GRACE_MS, lostAt, tryStanding } from './tries';

/**
 * How long a reservation waits for its question set, and answers for the bureau's verdict: one
 * upstream call with its retries, and some. Past it the process that held it is taken to be gone.
 */
const callBudgetMs = (ctx: AppContext) => ctx.config.ONBOARDING_TIMEOUT_MS * 3 + 2_000;

export type Attempt = typeof identityAttempts.$inferSelect;

export interface OpenAttempt {
	attempt: Attempt;
	questions: IdentityQuestionSet;
}

export interface IdentityState {
	/** Tries used in the window (see tryStanding). */
	failures: number;
	attemptsLeft: number;
	locked: boolean;
	open: OpenAttempt | undefined;
	/** The outcome of the most recent finished attempt of this session, to tell the merchant. */
	last: AttemptOutcome | undefined;
	/** Locked, and that attempt, lost, is the application's newest lost try: the one that locked. */
	lockedByLast: boolean;
	/** While locked: when the portal's lock lifts (null when the service locked it). */
	lockLiftsAt: Date | null;
	/**
	 * A try open in another session (another window or device), none here: when its time is up.
	 * Start is refused as busy until then; that try counts once it ends without a pass.
	 */
	openElsewhereUntil: Date | null;
}

const windowMs = (ctx: AppContext) => ctx.config.IDENTITY_WINDOW_HOURS * 3_600_000;

const windowStart = (ctx: AppContext, now: Date) => new Date(now.getTime() - windowMs(ctx));

function auditFor(ctx: AppContext, s: SigningSession, meta: RequestMeta) {
	return (type: string, data: Record<string, unknown> = {}) =>
		appendAudit(ctx.db, { ...sessionEvent(s, meta), type, data });
}

/** Closes an attempt still open; false when something else closed it first. */
async function finishAttempt(ctx: AppContext, id: string, outcome: AttemptOutcome, now: Date) {
	// The questions go with the attempt: nothing of the set outlives it.
	const closed = await ctx.db
		.update(identityAttempts)
		.set({ outcome, finishedAt: now, questionsEnc: null })
		.where(
			and(eq(identityAttempts.id, id), inArray(identityAttempts.outcome, ['pending', 'answering']))
		)
		.returning({ id: identityAttempts.id });
	return closed.length > 0;
}

/**
 * A set whose time (and grace) ran out with no answers judged: closed as late, the failure in the
 * trail, and the lock with the rep's note if it was the last try. Whoever closes it records it,
 * once: the merchant's next view, a late post of the answers, or the worker's sweep.
 */
async function closeLate(
	ctx: AppContext,
	s: SigningSession,
	attempt: Pick<Attempt, 'id' | 'questionSetId'>,
	meta: RequestMeta,
	now: Date,
	by: 'request' | 'sweep' = 'request'
) {
	if (!(await finishAttempt(ctx, attempt.id, 'late', now))) return;
	// The sweep acts for nobody: its events say so, or the timeline credits them to the merchant
	// (they carry the session, as the merchant's own do).
	const closedBy = by === 'sweep' ? { closedBy: 'portal' } : {};
	await auditFor(
		ctx,
		s,
		meta
	)('identity.failed', {
		questionSetId: attempt.questionSetId,
		reason: 'time limit passed',
		...closedBy
	});
	await afterFailure(ctx, s, meta, now, closedBy);
}

type Value<T> = T | Placeholder;

/**
 * A set whose questions were shown and whose deadline passed before `lateBefore` (the grace
 * taken off), still open: a try used, and the sweep's to close.
 */
const leftPastTime = (lateBefore: Value<Date>) =>
	and(
		eq(identityAttempts.outcome, 'pending'),
		isNotNull(identityAttempts.questionsEnc),
		lt(identityAttempts.deadlineAt, lateBefore)
	);

const NO_REQUEST: RequestMeta = { ip: null, userAgent: null };

/** Attempts to close, each with its session, for the trail. */
const attemptsWithSessions = (ctx: AppContext) =>
	ctx.db
		.select({
			id: identityAttempts.id,
			questionSetId: identityAttempts.questionSetId,
			session: getTableColumns(signingSessions)
		})
		.from(identityAttempts)
		.innerJoin(signingSessions, eq(signingSessions.id, identityAttempts.sessionId));

/**
 * The worker's sweep: sets left with their questions on the screen past their time. Closing
 * them here, not when the merchant comes back, drops the questions at once, and records a lock
 * (and emails the rep) when it happens. The count of tries is the same either way (triesCounted
 * counts such a set already).
 */
export async function closeAbandonedTries(ctx: AppContext, now = new Date()): Promise<number> {
	const due = await attemptsWithSessions(ctx)
		.where(leftPastTime(new Date(now.getTime() - GRACE_MS)))
		.orderBy(identityAttempts.deadlineAt)
		.limit(20);
	for (const a of due) await closeLate(ctx, a.session, a, NO_REQUEST, now, 'sweep');
	return due.length;
}

/**
 * When the questions shown in a signing session, and not yet answered, are due; null when none are
 * open. The lock screen says it: a tablet taken back from the merchant does not stop their time.
 */
export async function openQuestionsUntil(
	db: Tx,
	sessionId: string,
	now = new Date()
): Promise<Date | null> {
	const [open] = await db
		.select({ deadlineAt: identityAttempts.deadlineAt })
		.from(identityAttempts)
		.where(
			and(
				eq(identityAttempts.sessionId, sessionId),
				eq(identityAttempts.outcome, 'pending'),
				isNotNull(identityAttempts.questionsEnc),
				gt(identityAttempts.deadlineAt, now)
			)
		)
		.orderBy(desc(identityAttempts.deadlineAt))
		.limit(1);
	return open?.deadlineAt ?? null;
}

/** When a try was lost (`lostAt`, tries.ts), in SQL. */
const lostAtSql = sql`(case when ${identityAttempts.outcome} = 'failed'
	then coalesce(${identityAttempts.finishedAt}, ${identityAttempts.deadlineAt})
	else ${identityAttempts.deadlineAt} end)`;

/**
 * A new link, or a rep's "Revoke", ends the sessions on the links it replaces, and with them any
 * set of questions open there: closed at once as a try spent (its questions were shown, and past
 * its time it would count anyway), so that the new link's Start is not told the questions are
 * open elsewhere, and its count of tries left is right. Recorded in the name of who ended the
 * link, with their request; the lock it may complete, as any other. Called for every such end by
 * links/ending.ts.
 */
export async function closeTriesOfEndedLinks(
	ctx: AppContext,
	ended: {
		linkIds: string[];
		reason: 'link replaced' | 'link revoked' | 'signing in person';
		/** The rep's name as the trail records it; none for the operator API. */
		rep: string | null;
		by: string;
		meta: RequestMeta;
	},
	now = new Date()
): Promise<number> {
	if (ended.linkIds.length === 0) return 0;
	const open = await attemptsWithSessions(ctx).where(
		and(
			inArray(signingSessions.linkId, ended.linkIds),
			eq(identityAttempts.outcome, 'pending'),
			isNotNull(identityAttempts.questionsEnc)
		)
	);
	let closed = 0;
	for (const a of open) {
		if (!(await finishAttempt(ctx, a.id, 'late', now))) continue;
		closed++;
		await appendAudit(ctx.db, {
			...sessionEvent(a.session, ended.meta),
			rep: ended.rep,
			type: 'identity.failed',
			data: { questionSetId: a.questionSetId, reason: ended.reason, by: ended.by }
		});
		await afterFailure(ctx, a.session, NO_REQUEST, now);
	}
	return closed;
}

/**
 * The condition of triesOf, on a prepared statement's placeholders: the application's tries lost
 * since `since`. The console judges a lock from its own facts with `lostTry` (tries.ts), the same
 * rule but for answers still with the bureau.
 */
function triesCounted(w: {
	officeId: Value<number> | Column;
	applicationId: Value<number> | Column;
	since: Value<Date>;
	lateBefore: Value<Date>;
}) {
	return and(
		eq(identityAttempts.officeId, w.officeId),
		eq(identityAttempts.applicationId, w.applicationId),
		sql`${lostAtSql} > ${w.since}`,
		or(
			inArray(identityAttempts.outcome, ['failed', 'late', 'answering']),
			leftPastTime(w.lateBefore)
		)
	);
}

/** Which application's tries or passes: placeholders, or the columns of an outer query's row. */
interface WhichApplication {
	officeId: Placeholder | Column;
	applicationId: Placeholder | Column;
}

const PLACEHOLDERS: WhichApplication = {
	officeId: sql.placeholder('officeId'),
	applicationId: sql.placeholder('applicationId')
};

/** The statements' `since` and `lateBefore`: two windows back, enough to tell a lock (tryStanding). */
export const triesWindow = (ctx: AppContext, now: Date) => ({
	since: new Date(now.getTime() - 2 * windowMs(ctx)).toISOString(),
	lateBefore: new Date(now.getTime() - GRACE_MS).toISOString()
});

/** The statements' values for the session's (or any) application. */
const windowOf = (
	ctx: AppContext,
	s: Pick<SigningSession, 'officeId' | 'applicationId'>,
	now: Date
) => ({
	officeId: s.officeId,
	applicationId: s.applicationId,
	...triesWindow(ctx, now)
});

/**
 * The times (epoch milliseconds) the application's tries of the last two windows were lost, on
 * placeholders (`since`, `lateBefore`, and the application's unless an outer query's columns are
 * given): a statement of its own, and part of the identity step's and the link page's views.
 */
const triesOf = (db: Tx, of: WhichApplication = PLACEHOLDERS) =>
	db
		.select({
			lost: sql<
				number[]
			>`coalesce(json_agg(floor(extract(epoch from ${lostAtSql}) * 1000)), '[]'::json)`
		})
		.from(identityAttempts)
		.where(
			triesCounted({
				officeId: of.officeId,
				applicationId: of.applicationId,
				since: sql.placeholder('since'),
				lateBefore: sql.placeholder('lateBefore')
			})
		);

/** triesOf as one value: a subquery of a view. */
export const triesJson = (db: Tx, of?: WhichApplication) => sql<number[]>`(${triesOf(db, of)})`;

/** Reserving an attempt and recording a failure read the tries (see preparedPer). */
const triesQuery = preparedPer((db) => triesOf(db).prepare('identity_tries_lost'));

/** Where the application stands with its tries (tryStanding), from their times. */
const standing = (ctx: AppContext, lost: number[], now: Date) =>
	tryStanding(lost.map(Number), now.getTime(), {
		max: ctx.config.IDENTITY_MAX_ATTEMPTS,
		windowMs: windowMs(ctx)
	});

/** When the application's lock lifts, from its tries' times (triesJson), if it is locked now. */
export function lockOf(ctx: AppContext, lost: number[], now: Date): Date | null {
	const { lockedUntil } = standing(ctx, lost, now);
	return lockedUntil === null ? null : new Date(lockedUntil);
}

/**
 * The application's passes, each with the session's link and its email: a statement of its own
 * (earlierPass) and part of the identity step's and the link page's views. Aliased, so that a row
 * read from it as a subquery has the keys of `Pass`.
 */
const passesOf = (db: Tx, of: WhichApplication = PLACEHOLDERS) =>
	db
		.select({
			linkId: sql<string | null>`${signingSessions.linkId}`.as('linkId'),
			email: sql<string | null>`${signingLinks.email}`.as('email')
		})
		.from(identityAttempts)
		.innerJoin(signingSessions, eq(signingSessions.id, identityAttempts.sessionId))
		.leftJoin(signingLinks, eq(signingLinks.id, signingSessions.linkId))
		.where(
			and(
				eq(identityAttempts.officeId, of.officeId),
				eq(identityAttempts.applicationId, of.applicationId),
				eq(identityAttempts.outcome, 'passed')
			)
		);

/** passesOf as one JSON value: a subquery of a view (this step's, the link page's). */
export const passesJson = (db: Tx, of?: WhichApplication) =>
	sql<Pass[]>`coalesce((select json_agg(p) from (${passesOf(db, of)}) p), '[]'::json)`;

/**
 * Where the application stands with the tries of every link and device: judged as failed, out of
 * time (closed or not yet noticed), or sent to the bureau with no verdict recorded.
 */
async function triesUsed(
	ctx: AppContext,
	db: Tx,
	s: Pick<SigningSession, 'officeId' | 'applicationId'>,
	now: Date
) {
	const [row] = await triesQuery(db).execute(windowOf(ctx, s, now));
	return standing(ctx, row?.lost ?? [], now);
}

/**
 * The lock's event and the rep's note, together. The rep hears of a lock once per window, however
 * often the merchant runs into it.
 */
async function lockedOut(
	ctx: AppContext,
	s: SigningSession,
	meta: RequestMeta,
	now: Date,
	data: Record<string, unknown>,
	until: Date | null
) {
	await ctx.db.transaction(async (tx) => {
		await appendAudit(tx, { ...sessionEvent(s, meta), type: 'identity.locked', data });
		await notifyRep(tx, {
			officeId: s.officeId,
			applicationId: s.applicationId,
			business: s.businessName,
			repNo: s.repNo,
			kind: 'locked',
			until,
			onceSince: windowStart(ctx, now),
			at: now
		});
	});
}

async function afterFailure(
	ctx: AppContext,
	s: SigningSession,
	meta: RequestMeta,
	now: Date,
	extra: Record<string, unknown> = {}
) {
	const { used, lockedUntil } = await triesUsed(ctx, ctx.db, s, now);
	if (lockedUntil !== null) {
		const until = new Date(lockedUntil);
		const data = { failedAttempts: used, until: until.toISOString(), ...extra };
		await lockedOut(ctx, s, meta, now, data, until);
	}
}

/** An earlier pass of the application's identity check: the link its session was on. */
export interface Pass {
	linkId: string | null;
	email: string | null;
}

/**
 * What a view of the identity step reads, in one statement (see identityFacts): the session's
 * latest attempt, the tries used in the window, the application's passes and the email of the
 * session's link. Three statements cost about a sixth of the page's requests/s on PostgreSQL
 * (tests/bench/NOTES.md §9).
 */
const factsQuery = preparedPer((db) =>
	db
		.select({
			attempt: getTableColumns(identityAttempts),
			lost: triesJson(db),
			passes: passesJson(db),
			linkEmail: sql<
				string | null
			>`(select ${signingLinks.email} from ${signingLinks} where ${signingLinks.id} = ${sql.placeholder('linkId')})`,
			// A try with its questions on screen in another session (another window or device), and
			// when its time is up: Start here would be refused as busy, so the page says so first.
			openElsewhere: sql<
				number | null
			>`(select floor(extract(epoch from max(${identityAttempts.deadlineAt})) * 1000)
				from ${identityAttempts}
				where ${identityAttempts.officeId} = ${sql.placeholder('officeId')}
					and ${identityAttempts.applicationId} = ${sql.placeholder('applicationId')}
					and ${identityAttempts.sessionId} <> ${sql.placeholder('sessionId')}
					and ${identityAttempts.outcome} = 'pending' and ${identityAttempts.questionsEnc} is not null
					and ${identityAttempts.deadlineAt} > ${sql.placeholder('lateBefore')})`
		})
		.from(sql`(select 1) as one`)
		// The session's latest attempt, if it has one (each subquery reads its own identity_attempts).
		.leftJoin(
			identityAttempts,
			sql`${identityAttempts.id} = (select ${identityAttempts.id} from ${identityAttempts}
				where ${identityAttempts.sessionId} = ${sql.placeholder('sessionId')}
				order by ${identityAttempts.startedAt} desc limit 1)`
		)
		.prepare('identity_view')
);

async function identityFacts(ctx: AppContext, s: SigningSession, now: Date) {
	const [row] = await factsQuery(ctx.db).execute({
		...windowOf(ctx, s, now),
		sessionId: s.id,
		linkId: s.linkId
	});
	const elsewhere = row!.openElsewhere;
	return {
		latest: row!.attempt ?? undefined,
		lost: row!.lost,
		openElsewhere: elsewhere === null ? null : new Date(Number(elsewhere)),
		passes: row!.passes,
		linkEmail: row!.linkEmail
	};
}

/**
 * Where the merchant stands; an open attempt past its deadline is closed as late here. Closing
 * one changes no count: a set past its deadline and its grace counts as a try before and after
 * (triesCounted's `lateBefore` is this same moment).
 */
export async function identityView(
	ctx: AppContext,
	s: SigningSession,
	meta: RequestMeta,
	now = new Date()
): Promise<{ state: IdentityState; earlier: EarlierPass }> {
	const { latest, lost, passes, linkEmail, openElsewhere } = await identityFacts(ctx, s, now);
	let open: OpenAttempt | undefined;
	let last: AttemptOutcome | undefined = latest?.outcome;
	if (latest?.outcome === 'pending' && !latest.questionsEnc) {
		// A reservation whose set never arrived (the process that fetched it is gone): no try used.
		if (now.getTime() > latest.deadlineAt.getTime()) {
			await finishAttempt(ctx, latest.id, 'void', now);
			last = 'void';
		}
	} else if (latest?.outcome === 'pending' && latest.questionsEnc) {
		if (now.getTime() > latest.deadlineAt.getTime() + GRACE_MS) {
			await closeLate(ctx, s, latest, meta, now);
			last = 'late';
		} else {
			open = {
				attempt: latest,
				questions: JSON.parse(
					decrypt(ctx.encryptionKey, latest.questionsEnc)
				) as IdentityQuestionSet
			};
		}
	}
	const { used, lockedUntil } = standing(ctx, lost, now);
	const lastLost =
		latest && (last === 'failed' || last === 'late') ? lostAt({ ...latest, outcome: last }) : null;
	return {
		state: {
			lockedByLast:
				lockedUntil !== null &&
				lastLost !== null &&
				lastLost.getTime() >= Math.max(...lost.map(Number)) - 1,
			failures: used,
			attemptsLeft: lockedUntil === null ? Math.max(0, ctx.config.IDENTITY_MAX_ATTEMPTS - used) : 0,
			locked: lockedUntil !== null,
			open,
			last,
			lockLiftsAt: lockedUntil === null ? null : new Date(lockedUntil),
			openElsewhereUntil: open ? null : openElsewhere
		},
		earlier: judgePass(passes, s.linkId, linkEmail, s.channel)
	};
}

export async function identityState(
	ctx: AppContext,
	s: SigningSession,
	meta: RequestMeta,
	now = new Date()
): Promise<IdentityState> {
	return (await identityView(ctx, s, meta, now)).state;
}

/**
 * The limit to announce before the clock starts. The set's own limit is known only once it is
 * fetched (which starts the clock), so the merchant is told the limit the bureau last gave for
 * this office, falling back on the configured one.
 */
export async function announcedLimitSeconds(ctx: AppContext, s: SigningSession): Promise<number> {
	// Reference data about the bureau, like the upstream copies: kept with them, so a view of the
	// identity step does not sort the office's attempts each time.
	const { value } = await ctx.upstreamCache.get(`identity-limit:${s.officeId}`, async () => {
		const [last] = await ctx.db
			.select({ startedAt: identityAttempts.startedAt, deadlineAt: identityAttempts.deadlineAt })
			.from(identityAttempts)
			// Reservations that never received a set (no id) say nothing about the bureau's limit.
			.where(and(eq(identityAttempts.officeId, s.officeId), ne(identityAttempts.questionSetId, '')))
			.orderBy(desc(identityAttempts.startedAt))
			.limit(1);
		return {
			seconds: last
				? Math.round((last.deadlineAt.getTime() - last.startedAt.getTime()) / 1000)
				: ctx.config.IDENTITY_TIME_LIMIT_SECONDS
		};
	});
	return value.seconds;
}

export type StartResult =
	'started' | 'open' | 'busy' | 'locked' | 'unavailable' | 'verified' | 'elsewhere';

export interface Started {
	result: StartResult;
	/** With `verified`: the session's new secret, which replaces the cookie (see markPassed). */
	secret?: string;
}

export type EarlierPass =
	| { kind: 'none' }
	| { kind: 'carries'; linkId: string | null }
	/** `inPerson`: every pass was made in person (no link carries one: see newLinkCarries). */
	| { kind: 'refused'; email: string | null; inPerson: boolean };

const sameEmail = (a: string | null | undefined, b: string | null | undefined) =>
	!!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase();

/** Start and the identity step's Start look for earlier passes (see preparedPer). */
const passesQuery = preparedPer((db) => passesOf(db).prepare('identity_earlier_passes'));

/**
 * Whether the application's identity check already passed, and whether that pass carries over
 * to a session on `linkId`. The service asks no more questions once an application is verified,
 * so nothing would tell who holds a new link. It carries over on the same link (the merchant
 * whose session ended) and on a later link sent to the same email address as the link it passed
 * on (whoever reads that inbox had the first link too); in any other case (another address, a
 * copied link without one) the merchant is sent to their rep. In person it always carries: the
 * rep beside the merchant has checked their photo ID.
 */
export async function earlierPass(
	db: Tx,
	officeId: number,
	applicationId: number,
	linkId: string | null,
	channel: Channel = 'link'
): Promise<EarlierPass> {
	const passes = await passesQuery(db).execute({ officeId, applicationId });
	// The link's email matters only when a pass might carry to another link than its own.
	const [link] =
		passes.length > 0 && channel !== 'in_person' && linkId
			? await db
					.select({ email: signingLinks.email })
					.from(signingLinks)
					.where(eq(signingLinks.id, linkId))
			: [];
	return judgePass(passes, linkId, link?.email ?? null, channel);
}

/** The application's identity passes, with the email of the link each passed on. */
export const earlierPasses = (db: Tx, officeId: number, applicationId: number): Promise<Pass[]> =>
	passesQuery(db).execute({ officeId, applicationId });

/**
 * Whether a link not made yet, to `email` (null: a link to copy), would carry the passes over:
 * `judgePass`'s rule before the link exists, so that a rep is not let send a dead end.
 */
export const newLinkCarries = (passes: Pass[], email: string | null) =>
	passes.length === 0 || passes.some((p) => sameEmail(p.email, email));

/**
 * Whether a pass made earlier carries over to a link emailed to `to`, so that its email can say
 * no questions come this time (links/mail.ts, links/reminders.ts).
 */
export async function identityCarriesTo(
	db: Tx,
	m: { officeId: number; applicationId: number; to: string }
): Promise<boolean> {
	const passes = await earlierPasses(db, m.officeId, m.applicationId);
	return passes.length > 0 && newLinkCarries(passes, m.to);
}

/**
 * When the application's identity questions unlock, if too many tries have locked them now: the
 * link email then says so, rather than only that the application is ready (links/mail.ts).
 */
export async function questionsLockedUntil(
	ctx: AppContext,
	db: Tx,
	m: { officeId: number; applicationId: number },
	now = new Date()
): Promise<Date | null> {
	const { lockedUntil } = await triesUsed(ctx, db, m, now);
	return lockedUntil === null ? null : new Date(lockedUntil);
}

/** earlierPass's judgement, on the passes and the email of the link `linkId` (if any). */
export function judgePass(
	passes: Pass[],
	linkId: string | null,
	linkEmail: string | null,
	channel: Channel
): EarlierPass {
	if (passes.length === 0) return { kind: 'none' };
	if (channel === 'in_person') return { kind: 'carries', linkId: passes[0]!.linkId };
	const carrier = linkId
		? passes.find((p) => p.linkId === linkId || sameEmail(p.email, linkEmail))
		: undefined;
	if (carrier) return { kind: 'carries', linkId: carrier.linkId };
	return {
		kind: 'refused',
		email: passes.find((p) => p.email)?.email ?? null,
		inPerson: passes.every((p) => p.linkId === null)
	};
}

/**
 * Records that identity passed and replaces the session's secret in the same statement: whoever
 * held the old cookie (one planted before the merchant signed in, say) holds nothing now. The old
 * hash is kept only so that a page still holding that cookie (a second press of "Submit answers"
 * before the first came back) can be told what happened (see findSession).
 */
async function markPassed(ctx: AppContext, s: SigningSession, now: Date): Promise<string> {
	const { secret, tokenHash } = newSessionSecret();
	await ctx.db
		.update(signingSessions)
		.set({ identityPassedAt: now, tokenHash, replacedTokenHash: s.tokenHash })
		.where(eq(signingSessions.id, s.id));
	return secret;
}

/**
 * Reserves the application's one open attempt. Under the application's lock (the one its audit
 * chain takes), so that sessions on several links, devices or instances starting at once are
 * counted one after the other: at most one attempt is open, and never more than the limit used.
 */
async function reserve(
	ctx: AppContext,
	s: SigningSession,
	now: Date
): Promise<{ id: string } | 'busy' | 'locked'> {
	return ctx.db.transaction(async (tx) => {
		await holdApplication(tx, s.officeId, s.applicationId);
		const [open] = await tx
			.select({ id: identityAttempts.id })
			.from(identityAttempts)
			.where(
				and(
					eq(identityAttempts.officeId, s.officeId),
					eq(identityAttempts.applicationId, s.applicationId),
					or(
						and(
							eq(identityAttempts.outcome, 'pending'),
							gt(identityAttempts.deadlineAt, new Date(now.getTime() - GRACE_MS))
						),
						and(
							eq(identityAttempts.outcome, 'answering'),
							gt(
								identityAttempts.deadlineAt,
								new Date(now.getTime() - GRACE_MS - callBudgetMs(ctx))
							)
						)
					)
				)
			)
			.limit(1);
		if (open) return 'busy';
		if ((await triesUsed(ctx, tx, s, now)).lockedUntil !== null) return 'locked';
		const [row] = await tx
			.insert(identityAttempts)
			.values({
				officeId: s.officeId,
				applicationId: s.applicationId,
				sessionId: s.id,
				questionSetId: '',
				questionsEnc: null,
				startedAt: now,
				deadlineAt: new Date(now.getTime() + callBudgetMs(ctx))
			})
			.returning({ id: identityAttempts.id });
		return { id: row!.id };
	});
}

/** Fetches a fresh question set and opens an attempt whose clock starts now. */
export async function startAttempt(
	ctx: AppContext,
	s: SigningSession,
	meta: RequestMeta,
	now = new Date()
): Promise<Started> {
	const state = await identityState(ctx, s, meta, now);
	if (state.open) return { result: 'open' };
	if (state.locked) return { result: 'locked' };
	const reservation = await reserve(ctx, s, now);
	if (typeof reservation === 'string') return { result: reservation };
	const audit = auditFor(ctx, s, meta);
	let set: IdentityQuestionSet;
	try {
		set = await ctx.onboarding.getQuestionSet(s.officeId, s.applicationId);
	} catch (err) {
		// No questions were asked: the reservation uses no try.
		await finishAttempt(ctx, reservation.id, 'void', new Date());
		const status = err instanceof OnboardingError ? err.status : 0;
		if (status === 423) {
			await lockedOut(ctx, s, meta, now, { by: 'service' }, null);
			return { result: 'locked' };
		}
		if (status === 409) {
			const earlier = await earlierPass(ctx.db, s.officeId, s.applicationId, s.linkId, s.channel);
			if (earlier.kind === 'carries') {
				const secret = await markPassed(ctx, s, now);
				await audit('identity.passed', {
					by:
						s.channel === 'in_person'
							? 'earlier pass, photo ID checked in person'
							: earlier.linkId === s.linkId
								? 'earlier session on this link'
								: 'earlier link to this email',
					passedOnLink: earlier.linkId
				});
				return { result: 'verified', secret };
			}
			await audit('identity.refused', {
				reason:
					earlier.kind === 'refused'
						? 'verified on a link to another address'
						: 'verified in another session'
			});
			return { result: 'elsewhere' };
		}
		await audit('identity.unavailable', { status: status || null });
		return { result: 'unavailable' };
	}
	const limit = set.TimeLimitSeconds ?? ctx.config.IDENTITY_TIME_LIMIT_SECONDS;
	await ctx.db
		.update(identityAttempts)
		.set({
			questionSetId: String(set.QuestionSetID),
			questionsEnc: encrypt(ctx.encryptionKey, JSON.stringify(set)),
			deadlineAt: new Date(now.getTime() + limit * 1000)
		})
		.where(eq(identityAttempts.id, reservation.id));
	await audit('identity.started', {
		questionSetId: String(set.QuestionSetID),
		questions: set.Questions.length,
		timeLimitSeconds: limit
	});
	return { result: 'started' };
}

export type AnswerResult = 'passed' | 'failed' | 'late' | 'locked' | 'unavailable' | 'none';

export interface Answered {
	result: AnswerResult;
	/** With `passed`: the session's new secret, which replaces the cookie (see markPassed). */
	secret?: string;
}

/**
 * Posts the answers. They are passed straight through: never stored, never logged, and the
 * merchant is never told which one was wrong. Only one post of an attempt's answers reaches the
 * bureau: the attempt is claimed first, so a double submit or a second tab gets `none`.
 */
export async function submitAnswers(
	ctx: AppContext,
	s: SigningSession,
	open: OpenAttempt,
	answers: { QuestionID: number | string; ChoiceID: number | string }[],
	meta: RequestMeta,
	now = new Date()
): Promise<Answered> {
	const { attempt, questions } = open;
	const audit = auditFor(ctx, s, meta);
	if (now.getTime() > attempt.deadlineAt.getTime() + GRACE_MS) {
		await closeLate(ctx, s, attempt, meta, now);
		return { result: 'late' };
	}
	const claimed = await ctx.db
		.update(identityAttempts)
		.set({ outcome: 'answering' })
		.where(and(eq(identityAttempts.id, attempt.id), eq(identityAttempts.outcome, 'pending')))
		.returning({ id: identityAttempts.id });
	if (claimed.length === 0) return { result: 'none' };
	let result;
	try {
		result = await ctx.onboarding.postAnswerSet(s.officeId, s.applicationId, {
			ApplicationID: s.applicationId,
			QuestionSetID: questions.QuestionSetID,
			Answers: answers
		});
	} catch (err) {
		const status = err instanceof OnboardingError ? err.status : 0;
		// The bureau never judged these answers: the attempt is void, not failed.
		await finishAttempt(ctx, attempt.id, 'void', now);
		await audit('identity.unavailable', {
			questionSetId: attempt.questionSetId,
			status: status || null
		});
		return { result: 'unavailable' };
	}
	if (result.verified) {
		await finishAttempt(ctx, attempt.id, 'passed', now);
		const secret = await markPassed(ctx, s, now);
		await audit('identity.passed', { questionSetId: attempt.questionSetId });
		return { result: 'passed', secret };
	}
	if (result.reason === 'expired') {
		// The bureau's time ran out first (answers sent in the grace the portal allows past its own
		// clock): the time ran out, as for answers that arrive late, not answers that did not match.
		await closeLate(ctx, s, attempt, meta, now);
		return { result: 'late' };
	}
	await finishAttempt(ctx, attempt.id, 'failed', now);
	await audit('identity.failed', { questionSetId: attempt.questionSetId, reason: result.reason });
	await afterFailure(ctx, s, meta, now);
	return { result: result.reason === 'locked' ? 'locked' : 'failed' };
}
