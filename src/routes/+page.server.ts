import { app } from '$lib/server/app';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = () => {
	const { config } = app();
	return { sandbox: config.sandbox, mailbox: !config.SMTP_URL };
};
