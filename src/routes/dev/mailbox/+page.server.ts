import { error } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { shownTime } from '$lib/server/console/time';
import { mailMode } from '$lib/server/mail/mode';
import { listMailbox } from '$lib/server/mail/status';
import type { PageServerLoad } from './$types';

// Development only: with SMTP configured, or against the real service, this page does not exist.
export const load: PageServerLoad = async () => {
	const ctx = app();
	if (mailMode(ctx.config) !== 'mailbox') error(404, { message: 'Not found' });
	const messages = await listMailbox(ctx);
	return {
		// Every message's sender, as SMTP would send it.
		from: ctx.config.MAIL_FROM,
		messages: messages.map((m) => ({
			id: m.id,
			to: m.to ?? 'the application’s rep (looked up when sent)',
			// Replies go to the rep the message names.
			replyTo: m.replyTo,
			subject: m.subject,
			status: m.status,
			problem: m.problem,
			text: m.body?.text ?? null,
			hasHtml: Boolean(m.body?.html),
			// In the office's time, as the console shows the same messages.
			at: shownTime(m.createdAt, ctx.config.OFFICE_TIME_ZONE)
		}))
	};
};
