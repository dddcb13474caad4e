import { and, desc, eq, gt, inArray } from 'drizzle-orm';
import type { AppContext } from '$lib/server/app';
import { appendAudit } from '$lib/server/audit/audit';
import { decrypt, encrypt } from '$lib/server/crypto/secretbox';
import type { Tx } from '$lib/server/db';
import {
	identityAttempts,
	signingLinks,
	signingSessions,
	type AttemptOutcome
} from '$lib/server/db/schema';
import type { RequestMeta } from '$lib/server/http/meta';
import { notifyRep } from '$lib/server/mail/notes';
import { OnboardingError, type IdentityQuestionSet } from '$lib/server/onboarding';
import type { SigningSession } from '$lib/server/signing/session';
import { sessionEvent } from '$lib/server/signing/event';

/** Answers that arrive this long after the deadline were sent in time over a slow network. */
const GRACE_MS = 3_000;

export type Attempt = typeof identityAttempts.$inferSelect;

export interface OpenAttempt {
	attempt: Attempt;
	questions: IdentityQuestionSet;
}

export interface IdentityState {
	failures: number;
	attemptsLeft: number;
	locked: boolean;
	open: OpenAttempt | undefined;
	/** The outcome of the most recent finished attempt of this session, to tell the merchant. */
	last: AttemptOutcome | undefined;
}

const windowStart = (ctx: AppContext, now: Date) =>
	new Date(now.getTime() - ctx.config.IDENTITY_WINDOW_HOURS * 3_600_000);

function auditFor(ctx: AppContext, s: SigningSession, meta: RequestMeta) {
	return (type: string, data: Record<string, unknown> = {}) =>
		appendAudit(ctx.db, { ...sessionEvent(s, meta), type, data });
}

async function finishAttempt(ctx: AppContext, id: string, outcome: AttemptOutcome, now: Date) {
	// The questions go with the attempt: nothing of the set outlives it.
	await ctx.db
		.update(identityAttempts)
		.set({ outcome, finishedAt: now, questionsEnc: null })
		.where(and(eq(identityAttempts.id, id), eq(identityAttempts.outcome, 'pending')));
}

/** Failed attempts of the application in the window, counted over every link and device. */
async function failures(ctx: AppContext, s: SigningSession, now: Date): Promise<number> {
	const rows = await ctx.db
		.select({ id: identityAttempts.id })
		.from(identityAttempts)
		.where(
			and(
				eq(identityAttempts.officeId, s.officeId),
				eq(identityAttempts.applicationId, s.applicationId),
				inArray(identityAttempts.outcome, ['failed', 'late']),
				gt(identityAttempts.startedAt, windowStart(ctx, now))
			)
		);
	return rows.length;
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
			kind: 'locked',
			until,
			onceSince: windowStart(ctx, now),
			at: now
		});
	});
}

async function afterFailure(ctx: AppContext, s: SigningSession, meta: RequestMeta, now: Date) {
	const count = await failures(ctx, s, now);
	if (count >= ctx.config.IDENTITY_MAX_ATTEMPTS) {
		const until = new Date(now.getTime() + ctx.config.IDENTITY_WINDOW_HOURS * 3_600_000);
		await lockedOut(
			ctx,
			s,
			meta,
			now,
			{ failedAttempts: count, until: until.toISOString() },
			until
		);
	}
}

/** Where the merchant stands; an open attempt past its deadline is closed as late here. */
export async function identityState(
	ctx: AppContext,
	s: SigningSession,
	meta: RequestMeta,
	now = new Date()
): Promise<IdentityState> {
	const [latest] = await ctx.db
		.select()
		.from(identityAttempts)
		.where(eq(identityAttempts.sessionId, s.id))
		.orderBy(desc(identityAttempts.startedAt))
		.limit(1);
	let open: OpenAttempt | undefined;
	let last: AttemptOutcome | undefined = latest?.outcome;
	if (latest?.outcome === 'pending') {
		if (now.getTime() > latest.deadlineAt.getTime() + GRACE_MS || !latest.questionsEnc) {
			await finishAttempt(ctx, latest.id, 'late', now);
			await auditFor(
				ctx,
				s,
				meta
			)('identity.failed', { questionSetId: latest.questionSetId, reason: 'time limit passed' });
			await afterFailure(ctx, s, meta, now);
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
	const count = await failures(ctx, s, now);
	const max = ctx.config.IDENTITY_MAX_ATTEMPTS;
	return {
		failures: count,
		attemptsLeft: Math.max(0, max - count),
		locked: count >= max,
		open,
		last
	};
}

/**
 * The limit to announce before the clock starts. The set's own limit is known only once it is
 * fetched (which starts the clock), so the merchant is told the limit the bureau last gave for
 * this office, falling back on the configured one.
 */
export async function announcedLimitSeconds(ctx: AppContext, s: SigningSession): Promise<number> {
	const [last] = await ctx.db
		.select({ startedAt: identityAttempts.startedAt, deadlineAt: identityAttempts.deadlineAt })
		.from(identityAttempts)
		.where(eq(identityAttempts.officeId, s.officeId))
		.orderBy(desc(identityAttempts.startedAt))
		.limit(1);
	if (!last) return ctx.config.IDENTITY_TIME_LIMIT_SECONDS;
	return Math.round((last.deadlineAt.getTime() - last.startedAt.getTime()) / 1000);
}

export type StartResult = 'started' | 'open' | 'locked' | 'unavailable' | 'verified' | 'elsewhere';

export type EarlierPass =
	| { kind: 'none' }
	| { kind: 'carries'; linkId: string | null }
	| { kind: 'refused'; email: string | null };

const sameEmail = (a: string | null | undefined, b: string | null | undefined) =>
	!!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Whether the application's identity check already passed, and whether that pass carries over
 * to a session on `linkId`. The service asks no more questions once an application is verified,
 * so nothing would tell who holds a new link. It carries over on the same link (the merchant
 * whose session ended) and on a later link sent to the same email address as the link it passed
 * on (whoever reads that inbox had the first link too); in any other case (another address, a
 * copied link without one) the merchant is sent to their rep.
 */
export async function earlierPass(
	db: Tx,
	officeId: number,
	applicationId: number,
	linkId: string | null
): Promise<EarlierPass> {
	const passes = await db
		.select({ linkId: signingSessions.linkId, email: signingLinks.email })
		.from(identityAttempts)
		.innerJoin(signingSessions, eq(signingSessions.id, identityAttempts.sessionId))
		.leftJoin(signingLinks, eq(signingLinks.id, signingSessions.linkId))
		.where(
			and(
				eq(identityAttempts.officeId, officeId),
				eq(identityAttempts.applicationId, applicationId),
				eq(identityAttempts.outcome, 'passed')
			)
		);
	if (passes.length === 0) return { kind: 'none' };
	if (linkId) {
		const [link] = await db
			.select({ email: signingLinks.email })
			.from(signingLinks)
			.where(eq(signingLinks.id, linkId));
		const carrier = passes.find((p) => p.linkId === linkId || sameEmail(p.email, link?.email));
		if (carrier) return { kind: 'carries', linkId: carrier.linkId };
	}
	return { kind: 'refused', email: passes.find((p) => p.email)?.email ?? null };
}

async function markPassed(ctx: AppContext, s: SigningSession, now: Date) {
	await ctx.db
		.update(signingSessions)
		.set({ identityPassedAt: now })
		.where(eq(signingSessions.id, s.id));
}

/** Fetches a fresh question set and opens an attempt whose clock starts now. */
export async function startAttempt(
	ctx: AppContext,
	s: SigningSession,
	meta: RequestMeta,
	now = new Date()
): Promise<StartResult> {
	const state = await identityState(ctx, s, meta, now);
	if (state.open) return 'open';
	if (state.locked) return 'locked';
	const audit = auditFor(ctx, s, meta);
	let set: IdentityQuestionSet;
	try {
		set = await ctx.onboarding.getQuestionSet(s.officeId, s.applicationId);
	} catch (err) {
		const status = err instanceof OnboardingError ? err.status : 0;
		if (status === 423) {
			await lockedOut(ctx, s, meta, now, { by: 'service' }, null);
			return 'locked';
		}
		if (status === 409) {
			const earlier = await earlierPass(ctx.db, s.officeId, s.applicationId, s.linkId);
			if (earlier.kind === 'carries') {
				await markPassed(ctx, s, now);
				await audit('identity.passed', {
					by:
						earlier.linkId === s.linkId
							? 'earlier session on this link'
							: 'earlier link to this email',
					passedOnLink: earlier.linkId
				});
				return 'verified';
			}
			await audit('identity.refused', {
				reason:
					earlier.kind === 'refused'
						? 'verified on a link to another address'
						: 'verified in another session'
			});
			return 'elsewhere';
		}
		await audit('identity.unavailable', { status: status || null });
		return 'unavailable';
	}
	const limit = set.TimeLimitSeconds ?? ctx.config.IDENTITY_TIME_LIMIT_SECONDS;
	await ctx.db.insert(identityAttempts).values({
		officeId: s.officeId,
		applicationId: s.applicationId,
		sessionId: s.id,
		questionSetId: String(set.QuestionSetID),
		questionsEnc: encrypt(ctx.encryptionKey, JSON.stringify(set)),
		startedAt: now,
		deadlineAt: new Date(now.getTime() + limit * 1000)
	});
	await audit('identity.started', {
		questionSetId: String(set.QuestionSetID),
		questions: set.Questions.length,
		timeLimitSeconds: limit
	});
	return 'started';
}

export type AnswerResult = 'passed' | 'failed' | 'late' | 'locked' | 'unavailable' | 'none';

/**
 * Posts the answers. They are passed straight through: never stored, never logged, and the
 * merchant is never told which one was wrong.
 */
export async function submitAnswers(
	ctx: AppContext,
	s: SigningSession,
	open: OpenAttempt,
	answers: { QuestionID: number | string; ChoiceID: number | string }[],
	meta: RequestMeta,
	now = new Date()
): Promise<AnswerResult> {
	const { attempt, questions } = open;
	const audit = auditFor(ctx, s, meta);
	if (now.getTime() > attempt.deadlineAt.getTime() + GRACE_MS) {
		await finishAttempt(ctx, attempt.id, 'late', now);
		await audit('identity.failed', {
			questionSetId: attempt.questionSetId,
			reason: 'time limit passed'
		});
		await afterFailure(ctx, s, meta, now);
		return 'late';
	}
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
		return 'unavailable';
	}
	if (result.verified) {
		await finishAttempt(ctx, attempt.id, 'passed', now);
		await markPassed(ctx, s, now);
		await audit('identity.passed', { questionSetId: attempt.questionSetId });
		return 'passed';
	}
	await finishAttempt(ctx, attempt.id, 'failed', now);
	await audit('identity.failed', { questionSetId: attempt.questionSetId, reason: result.reason });
	await afterFailure(ctx, s, meta, now);
	return result.reason === 'locked' ? 'locked' : 'failed';
}
