import { fail, redirect } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { requestMeta } from '$lib/server/http/meta';
import {
	announcedLimitSeconds,
	identityState,
	identityView,
	startAttempt,
	submitAnswers
} from '$lib/server/identity/attempts';
import { hit, peek, waitWords, type Limit } from '$lib/server/ratelimit/ratelimit';
import { requireStep } from '$lib/server/signing/guard';
import { setSessionCookie, type SigningSession } from '$lib/server/signing/session';
import { parseAnswers } from './schema';
import { declineBeforeIdentity, identityCarries } from '$lib/server/signing/decline';
import { declineOnSignStep, readDecline, toDone } from '$lib/server/signing/decline-form';
import type { Actions, PageServerLoad } from './$types';

const BUSY =
	'The identity questions for this application are open in another window or on another device. Finish them there, or wait a few minutes until they time out, then start again.';
const UNAVAILABLE =
	'The credit bureau isn’t answering right now. No try was used. Wait a minute, then start again; if it still isn’t answering, try again later, or ask your sales representative for help.';

const ELSEWHERE =
	'Your identity was already confirmed using a different link. For your security this link can’t continue: please contact your sales representative, who can send a link to the address that link went to or help you finish in person.';

/**
 * The limit's refusal, with how long it lasts (to the end of the limit's hour); Start's says that
 * it cost no try.
 */
const limited = (retryAfterSeconds: number, start = false) =>
	`Too many requests for this application’s identity questions.${start ? ' No try was used.' : ''} Try again in ${waitWords(retryAfterSeconds)}.`;

/**
 * Why Start was refused. The action answers with a redirect to `?refused=…` rather than with the
 * page itself, so that without JavaScript the browser's Back and reload never post again (Chromium
 * shows "Confirm Form Resubmission" for a page that was a POST's answer). Start sends no input to
 * keep, so nothing is lost.
 */
const REFUSALS = {
	unavailable: UNAVAILABLE,
	busy: BUSY,
	elsewhere: ELSEWHERE,
	// Said with the wait, which the page works out (see load).
	limited: null,
	// The lock has its own notice.
	locked: null
} as const;
type Refusal = keyof typeof REFUSALS;

const refusedTo = (why: Refusal) => redirect(303, `/sign/identity?refused=${why}`);

function refusalOf(url: URL): Refusal | null {
	const why = url.searchParams.get('refused');
	return why && Object.hasOwn(REFUSALS, why) ? (why as Refusal) : null;
}

/**
 * A refusal a pass since has answered: confirmed elsewhere (the page says what that means here), or
 * busy with questions no longer open anywhere. An outage or the limit still applies to Continue.
 */
const staleOnceEarlier = (why: Refusal, state: { openElsewhereUntil: Date | null }) =>
	why === 'elsewhere' || (why === 'busy' && !state.openElsewhereUntil);

export const load: PageServerLoad = async (event) => {
	const session = requireStep(event, 'identity');
	const ctx = app();
	const [{ state, earlier }, limitSeconds] = await Promise.all([
		identityView(ctx, session, requestMeta(event)),
		announcedLimitSeconds(ctx, session)
	]);
	const now = Date.now();
	const refused = refusalOf(event.url);
	const refusal =
		!refused || state.open || (earlier.kind !== 'none' && staleOnceEarlier(refused, state))
			? null
			: refused === 'limited'
				? await limitedNow(session)
				: REFUSALS[refused];
	return {
		limitSeconds,
		maxAttempts: ctx.config.IDENTITY_MAX_ATTEMPTS,
		windowHours: ctx.config.IDENTITY_WINDOW_HOURS,
		attemptsLeft: state.attemptsLeft,
		// The service's own lock (a 423 to Start) is known only from the refusal.
		locked: state.locked || refused === 'locked',
		/**
		 * Why the last Start was refused, to say so; none once a set is open, nor once a pass
		 * has made it old news: the page's own notice says where to go (on another link, or
		 * continue here), and "open in another window" no longer holds once those questions
		 * were answered (a reload of the refusal's address, after the other window passed).
		 */
		refusal,
		lockLiftsAt: state.lockLiftsAt?.toISOString() ?? null,
		openElsewhereUntil: state.openElsewhereUntil?.toISOString() ?? null,
		last: state.last ?? null,
		// The lock's notice says how the try that locked ended, when it was this session's.
		lockedByLast: state.lockedByLast,
		/**
		 * Passed before: on this link or one to the same address, or in person (carried over), or
		 * elsewhere.
		 */
		earlier: earlier.kind,
		/** A pass that does not carry was made in person (the page says so, not "a link"). */
		earlierInPerson: earlier.kind === 'refused' && earlier.inPerson,
		/** …or on a link that was never emailed: no address a new link could go to. */
		earlierUnsent: earlier.kind === 'refused' && !earlier.inPerson && earlier.email === null,
		open: state.open
			? {
					deadline: state.open.attempt.deadlineAt.toISOString(),
					secondsLeft: Math.max(
						0,
						Math.round((state.open.attempt.deadlineAt.getTime() - now) / 1000)
					),
					limitSeconds: Math.round(
						(state.open.attempt.deadlineAt.getTime() - state.open.attempt.startedAt.getTime()) /
							1000
					),
					questions: state.open.questions.Questions.map((q) => ({
						id: String(q.QuestionID),
						prompt: q.Prompt,
						choices: q.Choices.map((c) => ({ id: String(c.ChoiceID), text: c.Text }))
					}))
				}
			: null
	};
};

/** An application's identity requests (Start, and answers sent whole) in an hour. */
const identityLimit = (session: SigningSession): Limit => ({
	key: `identity:${session.officeId}:${session.applicationId}`,
	max: app().config.RATE_LIMIT_IDENTITY,
	windowSeconds: 3600
});

/**
 * The limit's refusal of Start, said with how long it still holds; none once its hour is over (a
 * reload of the refusal's address later).
 */
async function limitedNow(session: SigningSession) {
	const limit = await peek(app().db, identityLimit(session));
	return limit.ok ? null : limited(limit.retryAfterSeconds, true);
}

/**
 * Counts a request against the application's identity limit: null while it is let through, else
 * the seconds until the limit's hour is over.
 */
async function overLimit(session: SigningSession) {
	const r = await hit(app().db, identityLimit(session));
	return r.ok ? null : r.retryAfterSeconds;
}

export const actions: Actions = {
	start: async (event) => {
		const session = requireStep(event, 'identity');
		if ((await overLimit(session)) !== null) refusedTo('limited');
		const { result, secret } = await startAttempt(app(), session, requestMeta(event));
		if (
			result === 'unavailable' ||
			result === 'locked' ||
			result === 'busy' ||
			result === 'elsewhere'
		) {
			refusedTo(result);
		}
		if (secret) setSessionCookie(event.cookies, event.url, secret, session.channel);
		redirect(303, result === 'verified' ? '/sign/sign' : '/sign/identity');
	},
	answer: async (event) => {
		const session = requireStep(event, 'identity');
		const ctx = app();
		const meta = requestMeta(event);
		const state = await identityState(ctx, session, meta);
		if (!state.open) redirect(303, '/sign/identity');
		const parsed = parseAnswers(await event.request.formData(), state.open.questions);
		if (Object.keys(parsed.errors).length > 0) {
			return fail(400, {
				errors: parsed.errors,
				selected: parsed.selected,
				message: 'Answer every question, then submit.'
			});
		}
		// Counted once the answers are whole, as the sign step counts only a decision that passed
		// validation: a form sent unfinished is not the guessing this limit is for, and counting it
		// left a merchant's right answers refused while their try's time ran out.
		const wait = await overLimit(session);
		if (wait !== null) return fail(429, { message: limited(wait), selected: parsed.selected });
		const { result, secret } = await submitAnswers(ctx, session, state.open, parsed.answers, meta);
		if (result === 'unavailable') return fail(503, { message: UNAVAILABLE });
		// Identity passed: the session goes on under a new secret (see markPassed).
		if (secret) setSessionCookie(event.cookies, event.url, secret, session.channel);
		redirect(303, result === 'passed' ? '/sign/sign' : '/sign/identity');
	},
	decline: async (event) => {
		const session = requireStep(event, 'identity');
		const ctx = app();
		const meta = requestMeta(event);
		const read = await readDecline(event);
		if (!read.ok) return read.failure;
		if (await identityCarries(ctx.db, session)) return declineOnSignStep(read.reason);
		// Declining with questions open leaves that try to run out like any other walked-away try.
		const state = await identityState(ctx, session, meta);
		await declineBeforeIdentity(
			ctx,
			ctx.db,
			session,
			{ stage: state.locked ? 'locked' : 'identity', reason: read.reason },
			meta
		);
		toDone();
	}
};
