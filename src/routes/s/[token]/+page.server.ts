import { fail, redirect } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { appendAudit } from '$lib/server/audit/audit';
import { requestMeta } from '$lib/server/http/meta';
import { openLink } from '$lib/server/links/open';
import { isDecided } from '$lib/server/onboarding';
import { businessName, findApplication } from '$lib/server/signing/application';
import { createSession, setSessionCookie } from '$lib/server/signing/session';
import type { Actions, PageServerLoad } from './$types';
import { sessionEvent } from '$lib/server/signing/event';

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

export const actions: Actions = {
	default: async (event) => {
		const ctx = app();
		const link = await openLink(ctx, event, event.params.token);
		let item;
		try {
			item = await findApplication(ctx, link.officeId, link.applicationId, { fresh: true });
		} catch {
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
		if (isDecided(item)) {
			return fail(409, {
				message:
					'A decision is already on record for this application, so there is nothing left to sign. Your sales representative can tell you more.'
			});
		}
		const meta = requestMeta(event);
		const { secret } = await ctx.db.transaction(async (tx) => {
			const created = await createSession(tx, {
				channel: 'link',
				linkId: link.id,
				repId: null,
				officeId: link.officeId,
				applicationId: link.applicationId,
				businessName: businessName(item),
				ownerFirstName: item.Ownr1_Legal_Name_First ?? '',
				ownerLastName: item.Ownr1_Legal_Name_Last ?? '',
				ownerEmail: item.Ownr1_Email ?? '',
				...meta
			});
			const common = sessionEvent(created.session, meta);
			await appendAudit(tx, { ...common, type: 'link.opened', data: { linkId: link.id } });
			await appendAudit(tx, { ...common, type: 'session.started', data: { linkId: link.id } });
			return created;
		});
		setSessionCookie(event.cookies, event.url, secret);
		redirect(303, '/sign/terms');
	}
};
