import { fail, redirect } from '@sveltejs/kit';
import { waitWords } from '$lib/server/ratelimit/ratelimit';
import * as v from 'valibot';
import { formatTime } from '$lib/time';
import { app } from '$lib/server/app';
import { openQuestionsUntil } from '$lib/server/identity/attempts';
import { requestMeta } from '$lib/server/http/meta';
import { TABLET_COOKIE, lockHandover, type Handover } from '$lib/server/inperson/handover';
import { handoverRep, unlockHandover, unlockPaused } from '$lib/server/inperson/unlock';
import { setRepCookie } from '$lib/server/reps/session';
import { signInRules, withPauseWarning } from '$lib/server/reps/signin';
import { forgetSessionCookie } from '$lib/server/signing/session';
import { LockSchema, UnlockSchema } from './schema';
import type { Actions, PageServerLoad } from './$types';

/** An Unlock refused, and for how many seconds a try would be (null: none is paused). */
const refuse = (status: number, error: string, pausedSeconds: number | null = null) =>
	fail(status, { unlock: true, error, pausedSeconds });

/** Why the Unlock is refused for a while, and what the rep can do meanwhile. */
const pausedWords = (seconds: number, reason: Handover['lockReason']) =>
	`Too many wrong passwords. For your security, unlocking this device is paused: try again in ${waitWords(seconds)}. Meanwhile you can sign in to your console on another device${
		reason === 'finished'
			? '.'
			: ': the application is there, where you can hand over another device or send the merchant a link.'
	}`;

// The hook (hooks.server.ts) sends a locked tablet here and a tablet in the merchant's hands to
// its signing step; without a hand-over there is nothing to lock or unlock.
export const load: PageServerLoad = async (event) => {
	const { locals } = event;
	const h = locals.handover;
	if (!h) redirect(303, '/rep');
	if (!h.lockedAt) redirect(303, '/sign/terms');
	// Nothing of the merchant's: a name, a business, a step would all be personal data. The rep's
	// email is theirs (the signing pages show a rep's to the merchant): with it a password manager
	// knows which password to fill.
	const ctx = app();
	const [rep, questionsUntil] = await Promise.all([
		handoverRep(ctx.db, h),
		// Not the questions, only that some are open, and until when: the rep needs to know
		// that the merchant's time runs on while the tablet is with them. Not once the signing
		// goes on on another device, where the merchant has them.
		h.lockReason === 'finished' || h.lockReason === 'moved'
			? null
			: openQuestionsUntil(ctx.db, h.signingSessionId)
	]);
	// Paused by wrong passwords: said as the page is shown (a reload, the tablet picked up later),
	// not only once the rep has typed the right one and been refused.
	const paused = rep ? await unlockPaused(ctx, h, rep.email, requestMeta(event)) : null;
	return {
		reason: h.lockReason,
		repEmail: rep?.email ?? null,
		paused: paused === null ? null : pausedWords(paused, h.lockReason),
		pausedSeconds: paused,
		questionsUntil: questionsUntil
			? {
					iso: questionsUntil.toISOString(),
					text: formatTime(questionsUntil, ctx.config.OFFICE_TIME_ZONE, 'long', { seconds: true })
				}
			: null
	};
};

export const actions: Actions = {
	/** "Return to rep" on a signing page, and the page's idle timer. */
	lock: async (event) => {
		const h = event.locals.handover;
		if (!h) redirect(303, '/rep');
		// Never refused (see LockSchema): the tablet locks whatever the post says.
		const { reason } = v.parse(LockSchema, Object.fromEntries(await event.request.formData()));
		const ctx = app();
		await lockHandover(ctx.db, h, reason, {
			meta: requestMeta(event),
			idleSeconds: reason === 'idle' ? ctx.config.IN_PERSON_IDLE_SECONDS : undefined
		});
		redirect(303, '/rep/lock');
	},
	unlock: async (event) => {
		const h = event.locals.handover;
		if (!h) redirect(303, '/rep');
		if (!h.lockedAt) redirect(303, '/sign/terms');
		const parsed = v.safeParse(UnlockSchema, Object.fromEntries(await event.request.formData()));
		if (!parsed.success) return refuse(400, parsed.issues[0].message);
		const { rep } = event.locals;
		const result = await unlockHandover(
			app(),
			h,
			{
				password: parsed.output.password,
				repSessionOpen: rep?.sessionId === h.repSessionId
			},
			requestMeta(event)
		);
		if (!result.ok && result.reason === 'locked') {
			event.setHeaders({ 'retry-after': String(result.retryAfterSeconds) });
			return refuse(
				429,
				pausedWords(result.retryAfterSeconds, h.lockReason),
				result.retryAfterSeconds
			);
		}
		if (!result.ok && result.disabled) {
			return refuse(
				403,
				'This rep account is disabled, so it can’t unlock this device. Ask whoever runs this portal to enable it again.'
			);
		}
		if (!result.ok) {
			const rules = signInRules(app().config);
			return refuse(
				400,
				withPauseWarning(
					'That password is not right. Only the rep who handed over this device can unlock it.',
					result,
					rules,
					'unlocking'
				),
				// The last try: paused from now, for as long as it says (or at most two windows).
				result.left <= 0 ? (result.pausedSeconds ?? 2 * rules.lockoutMinutes * 60) : null
			);
		}
		event.cookies.delete(TABLET_COOKIE, { path: '/' });
		forgetSessionCookie(event.cookies);
		if (result.repSecret) setRepCookie(event.cookies, event.url, result.repSecret);
		redirect(303, `/rep/applications/${h.applicationId}?done=unlocked`);
	}
};
