import { fail, redirect } from '@sveltejs/kit';
import { waitWords } from '$lib/server/ratelimit/ratelimit';
import * as v from 'valibot';
import { app } from '$lib/server/app';
import { requestMeta } from '$lib/server/http/meta';
import { safeNext } from '$lib/server/reps/guard';
import { REP_COOKIE, setRepCookie } from '$lib/server/reps/session';
import { signIn, signInRules, withPauseWarning } from '$lib/server/reps/signin';
import { typedBack } from '$lib/server/signing/ssn';
import { SignInSchema } from './schema';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = ({ locals, url }) => {
	const next = safeNext(url.searchParams.get('next'));
	if (locals.rep) redirect(303, next);
	return {
		// Nobody is signed in here. Said by the page itself: after a redirect within the console
		// (a sign-out in another tab), the browser keeps the console layout's data as it was.
		signedIn: null,
		// Why the session ended, when it is known (requireRep): RepSessionEnd (reps/session.ts).
		ended: url.searchParams.get('ended'),
		gone: url.searchParams.has('gone'),
		undone: url.searchParams.has('undone'),
		signedOut: url.searchParams.has('signedout'),
		idleMinutes: app().config.REP_SESSION_IDLE_MINUTES,
		maxHours: app().config.REP_SESSION_MAX_HOURS
	};
};

export const actions: Actions = {
	default: async (event) => {
		const ctx = app();
		const form = Object.fromEntries(await event.request.formData());
		// Shown back without anything SSN-shaped, as every form's typed fields are.
		const email = typedBack(form, 'email', 254);
		const parsed = v.safeParse(SignInSchema, form);
		if (!parsed.success) {
			const errors: Record<string, string> = {};
			for (const issue of parsed.issues) {
				const key = v.getDotPath(issue) ?? 'email';
				errors[key] ??= issue.message;
			}
			return fail(400, { email, errors, message: null });
		}
		const result = await signIn(
			ctx.db,
			signInRules(ctx.config),
			{ ...parsed.output, previousSecret: event.cookies.get(REP_COOKIE) },
			requestMeta(event)
		);
		if (!result.ok && result.reason === 'locked') {
			event.setHeaders({ 'retry-after': String(result.retryAfterSeconds) });
			return fail(429, {
				email,
				errors: {},
				message: `Too many sign-in attempts. For your security, sign-in is paused: try again in ${waitWords(result.retryAfterSeconds)}.`
			});
		}
		if (!result.ok && result.disabled) {
			return fail(403, {
				email,
				errors: {},
				message:
					'This rep account is disabled, so it can’t sign in. Ask whoever runs this portal to enable it again.'
			});
		}
		if (!result.ok) {
			// One message for an unknown email and a wrong password alike.
			return fail(400, {
				email,
				errors: {},
				message: withPauseWarning(
					'That email and password don’t match an active rep account.',
					result,
					signInRules(ctx.config),
					'sign-in'
				)
			});
		}
		setRepCookie(event.cookies, event.url, result.secret);
		redirect(303, safeNext(event.url.searchParams.get('next')));
	}
};
