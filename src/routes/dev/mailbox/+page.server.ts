import { error } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { listMailbox } from '$lib/server/mail/mail';
import type { PageServerLoad } from './$types';

// Development only: with SMTP configured, or against the real service, this page does not exist.
export const load: PageServerLoad = async () => {
	const ctx = app();
	if (!ctx.config.sandbox || ctx.config.SMTP_URL) error(404, { message: 'Not found' });
	const messages = await listMailbox(ctx.db);
	return {
		messages: messages.map((m) => ({
			id: m.id,
			to: m.to,
			subject: m.subject,
			text: m.text,
			at: m.createdAt.toISOString()
		}))
	};
};
