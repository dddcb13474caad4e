import { error, fail, redirect } from '@sveltejs/kit';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { app } from '$lib/server/app';
import { appendAudit } from '$lib/server/audit/audit';
import { signingSessions } from '$lib/server/db/schema';
import { requestMeta } from '$lib/server/http/meta';
import { requireStep } from '$lib/server/signing/guard';
import {
	CONSENT_SHA256,
	CONSENT_TEXT,
	sectionsForPage,
	showTerms
} from '$lib/server/signing/terms';
import { ConsentSchema } from './schema';
import { declineBeforeIdentity, identityCarries } from '$lib/server/signing/decline';
import { declineOnSignStep, readDecline, toDone } from '$lib/server/signing/decline-form';
import type { Actions, PageServerLoad } from './$types';
import { sessionEvent } from '$lib/server/signing/event';

export const load: PageServerLoad = async (event) => {
	const session = requireStep(event, 'terms');
	const ctx = app();
	try {
		const { sections, version } = await showTerms(ctx, session, requestMeta(event));
		return {
			sections: sectionsForPage(sections, event.isDataRequest),
			version,
			consent: CONSENT_TEXT
		};
	} catch {
		error(503, {
			message: 'We can’t load the agreement right now. Wait a minute, then reload this page.'
		});
	}
};

export const actions: Actions = {
	consent: async (event) => {
		const session = requireStep(event, 'terms');
		const ctx = app();
		const form = Object.fromEntries(await event.request.formData());
		const parsed = v.safeParse(ConsentSchema, form);
		if (!parsed.success) {
			return fail(400, { errors: { consent: parsed.issues[0].message } });
		}
		if (parsed.output.version !== session.termsVersion) {
			// The office changed its terms while the merchant was reading: they must see the new ones.
			return fail(409, {
				errors: {
					consent:
						'The agreement was updated while you were reading. Please read the updated version below.'
				}
			});
		}
		const now = new Date();
		await ctx.db.transaction(async (tx) => {
			await tx
				.update(signingSessions)
				.set({ consentAt: now })
				.where(eq(signingSessions.id, session.id));
			await appendAudit(tx, {
				...sessionEvent(session, requestMeta(event)),
				type: 'consent.given',
				at: now,
				data: { consentSha256: CONSENT_SHA256, termsVersion: session.termsVersion }
			});
		});
		redirect(303, '/sign/identity');
	},
	decline: async (event) => {
		const session = requireStep(event, 'terms');
		const read = await readDecline(event);
		if (!read.ok) return read.failure;
		if (await identityCarries(app().db, session)) return declineOnSignStep(read.reason);
		await declineBeforeIdentity(
			app(),
			app().db,
			session,
			{ stage: 'terms', reason: read.reason },
			requestMeta(event)
		);
		toDone();
	}
};
