import { fail, type RequestEvent } from '@sveltejs/kit';
import { redirect } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { requestMeta } from '$lib/server/http/meta';
import { openLink } from '$lib/server/links/open';
import { isDecided } from '$lib/server/onboarding';
import { businessName, findApplication } from '$lib/server/signing/application';
import { declineBeforeIdentity } from '$lib/server/signing/decline';
import { readDecline, toDone } from '$lib/server/signing/decline-form';
import { setSessionCookie } from '$lib/server/signing/session';
import { startFromLink } from '$lib/server/signing/start';
import type { Actions, PageServerLoad } from './$types';

// Mail scanners open links too: this load reads and never writes (but for the rate-limit count).
export const load: PageServerLoad = async (event) => {
	const ctx = app();
	const link = await openLink(ctx, event, event.params.token);
	let business: string | null = null;
	try {
		const item = await findApplication(ctx, link.officeId, link.applicationId);
		business = item ? businessName(item) : null;
	} catch {
		business = null;
	}
	return { business, expiresAt: link.expiresAt.toISOString() };
};

const DECIDED =
	'A decision is already on record for this application, so there is nothing left to sign. Your sales representative can tell you more.';

/** The application as the service has it now; a failure to say here, in words for the merchant. */
async function currentApplication(event: RequestEvent) {
	const ctx = app();
	const link = await openLink(ctx, event, event.params.token!);
	try {
		const item = await findApplication(ctx, link.officeId, link.applicationId, { fresh: true });
		return { link, item, unreachable: false };
	} catch {
		return { link, item: undefined, unreachable: true };
	}
}

export const actions: Actions = {
	start: async (event) => {
		const { link, item, unreachable } = await currentApplication(event);
		if (unreachable) {
			return fail(503, {
				message:
					'We can’t reach the onboarding service right now. Wait a minute and press Start again.'
			});
		}
		if (!item) {
			return fail(404, {
				message:
					'This application can no longer be found. Please contact your sales representative.'
			});
		}
		if (isDecided(item)) return fail(409, { message: DECIDED });
		const { secret } = await app().db.transaction((tx) =>
			startFromLink(tx, link, item, requestMeta(event))
		);
		setSessionCookie(event.cookies, event.url, secret);
		redirect(303, '/sign/terms');
	},
	decline: async (event) => {
		const read = await readDecline(event);
		if (!read.ok) return read.failure;
		// Saying no does not wait for the service: while it is unreachable the decline is still kept.
		const { link, item } = await currentApplication(event);
		if (item && isDecided(item)) return fail(409, { message: DECIDED });
		const meta = requestMeta(event);
		const { secret } = await app().db.transaction(async (tx) => {
			const created = await startFromLink(tx, link, item ?? null, meta);
			await declineBeforeIdentity(
				tx,
				created.session,
				{ stage: 'link', reason: read.reason },
				meta
			);
			return created;
		});
		// The done page says it is recorded; the session that shows it is already finished.
		setSessionCookie(event.cookies, event.url, secret);
		toDone();
	}
};
