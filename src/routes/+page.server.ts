import { error, fail, redirect } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { hasTrail } from '$lib/server/audit/audit';
import { limitAddress } from '$lib/server/http/address';
import { clientIp, requestMeta } from '$lib/server/http/meta';
import { issueLink } from '$lib/server/links/ending';
import { BY_SANDBOX_DEMO } from '$lib/server/links/links';
import { mailMode } from '$lib/server/mail/mode';
import { hit, waitWords } from '$lib/server/ratelimit/ratelimit';
import { DEMO_OFFICE } from '$lib/server/sandbox/seed-data';
import { findApplication } from '$lib/server/signing/application';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = () => {
	const { config } = app();
	return { sandbox: config.sandbox, mailbox: mailMode(config) === 'mailbox' };
};

/** New demo applications one address may start in an hour. */
const DEMOS_PER_HOUR = 30;

export const actions: Actions = {
	/**
	 * On the sandbox only: a fresh demo application and its signing link, opened at once. The
	 * seeded ones run out as a demo is tried (a decision, a decline, a lock); this one is new.
	 * The console names it a demo link (BY_SANDBOX_DEMO).
	 */
	demo: async (event) => {
		const ctx = app();
		if (!ctx.sandbox) error(404, 'Not found');
		// Each demo is a new application in the sandbox's tables, kept: a sandbox open to the web
		// must not be filled by one address pressing the button in a loop.
		const limit = await hit(ctx.db, {
			key: `demo:${limitAddress(clientIp(event))}`,
			max: DEMOS_PER_HOUR,
			windowSeconds: 3600
		});
		if (!limit.ok) {
			event.setHeaders({ 'retry-after': String(limit.retryAfterSeconds) });
			// Said on the start page itself, beside the button, so its links stay at hand.
			return fail(429, {
				demoRefused: `Too many demos started from your address. Try again in ${waitWords(limit.retryAfterSeconds)}, or go on with one already started.`
			});
		}
		// New to the portal too: the sandbox's reset (its control API) starts its ids again, and an
		// id the portal has records of (a pass, a decision) would not be a fresh demo.
		let id = (await ctx.sandbox.addDemo()).id;
		for (let tries = 0; (await hasTrail(ctx.db, DEMO_OFFICE, id)) && tries < 1000; tries++) {
			id = (await ctx.sandbox.addDemo()).id;
		}
		// The portal keeps the office's list for a while: read afresh, it holds the new one.
		await findApplication(ctx, DEMO_OFFICE, id, { fresh: true });
		const made = await issueLink(ctx, {
			officeId: DEMO_OFFICE,
			applicationId: id,
			email: null,
			createdBy: BY_SANDBOX_DEMO,
			ttlHours: ctx.config.LINK_TTL_HOURS,
			meta: requestMeta(event)
		});
		// A new application: no tablet can have been handed over for it (TabletRule).
		if (!made.ok) error(409, 'That demo is already being signed in person; start another.');
		redirect(303, `/s/${made.token}`);
	}
};
