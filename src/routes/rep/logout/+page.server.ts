import { redirect } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { endRepSession, REP_COOKIE } from '$lib/server/reps/session';
import type { Actions, PageServerLoad } from './$types';

// Signing out is a post (a link or a prefetch must not sign anyone out); this address has no page.
export const load: PageServerLoad = () => redirect(303, '/rep');

export const actions: Actions = {
	default: async ({ cookies }) => {
		await endRepSession(app().db, cookies.get(REP_COOKIE));
		cookies.delete(REP_COOKIE, { path: '/rep' });
		redirect(303, '/rep/login?signedout=1');
	}
};
