import { fail, redirect } from '@sveltejs/kit';
import { waitWords } from '$lib/server/ratelimit/ratelimit';
import * as v from 'valibot';
import { app } from '$lib/server/app';
import { requestMeta } from '$lib/server/http/meta';
import { changeRepPassword } from '$lib/server/reps/accounts';
import { forgetDemoPassword } from '$lib/server/reps/demo';
import { requireRep, safeNext } from '$lib/server/reps/guard';
import { PASSWORD_MIN } from '$lib/server/reps/schemas';
import { checkRepPassword, signInRules, withPauseWarning } from '$lib/server/reps/signin';
import { PasswordChangeSchema } from './schema';
import type { Actions, PageServerLoad } from './$types';

// The one rep page open to a password the operator set (requireRep): the rep chooses their own
// here, then goes on to the page they were sent from (`next`).
const PASSWORD_PAGE = { temporaryPassword: true };

export const load: PageServerLoad = (event) => {
	const rep = requireRep(event, PASSWORD_PAGE);
	return {
		email: rep.email,
		minLength: PASSWORD_MIN,
		temporary: rep.passwordTemporary,
		// Said after a change of the rep's own; a temporary one is still to be changed.
		changed: !rep.passwordTemporary && event.url.searchParams.has('changed')
	};
};

export const actions: Actions = {
	default: async (event) => {
		const rep = requireRep(event, PASSWORD_PAGE);
		const ctx = app();
		// No password comes back to the page, as none does at sign-in: only the reasons.
		const form = Object.fromEntries(await event.request.formData());
		const parsed = v.safeParse(PasswordChangeSchema, form);
		const errors: Record<string, string> = {};
		if (!parsed.success) {
			for (const issue of parsed.issues) errors[v.getDotPath(issue) ?? 'current'] ??= issue.message;
		}
		// The current password is checked whenever one was given, so that a wrong one is said
		// with the new ones' problems at once, not after they are fixed and every field typed
		// again. Checked as at sign-in, against the same counts: a session left open on a shared
		// computer gives no more guesses at the password than the sign-in page does.
		const current = parsed.success
			? parsed.output.current
			: !errors.current && typeof form.current === 'string'
				? form.current
				: null;
		if (current !== null) {
			const checked = await checkRepPassword(
				ctx.db,
				signInRules(ctx.config),
				{ email: rep.email, password: current },
				requestMeta(event)
			);
			if (!checked.ok && checked.reason === 'locked') {
				event.setHeaders({ 'retry-after': String(checked.retryAfterSeconds) });
				return fail(429, {
					errors: {},
					message: `Too many wrong passwords. For your security, your password can’t be checked for now (signing in is paused too): try again in ${waitWords(checked.retryAfterSeconds)}. Nothing was changed.`
				});
			}
			if (!checked.ok) {
				errors.current = withPauseWarning(
					'That is not your current password.',
					checked,
					signInRules(ctx.config),
					'signing in'
				);
			}
		}
		if (!parsed.success || Object.keys(errors).length > 0) {
			return fail(400, { errors, message: null });
		}
		const changed = await changeRepPassword(ctx.db, rep, parsed.output.password);
		// Disabled by the operator between the page and the press: their session ended with it.
		if (!changed) redirect(303, '/rep/login?ended=disabled');
		forgetDemoPassword(ctx.config, rep.email);
		// Chosen in place of the operator's: on to the page the rep signed in for, which opens now.
		if (rep.passwordTemporary) redirect(303, safeNext(event.url.searchParams.get('next')));
		redirect(303, '/rep/password?changed=1');
	}
};
