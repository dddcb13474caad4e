import { app } from '$lib/server/app';
import { mailMode } from '$lib/server/mail/mode';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = () => {
	const { config } = app();
	return { sandbox: config.sandbox, mailbox: mailMode(config) === 'mailbox' };
};
