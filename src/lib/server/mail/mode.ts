import type { AppContext } from '$lib/server/app';
import type { Config } from '$lib/server/config/config';

/**
 * Where mail goes: an SMTP server when `SMTP_URL` is set; on embedded defaults (the sandbox)
 * without one, the development mailbox; otherwise nowhere, and nothing pretends it was sent.
 */
export type MailMode = 'smtp' | 'mailbox' | 'off';

export function mailMode(config: Pick<Config, 'SMTP_URL' | 'sandbox'>): MailMode {
	if (config.SMTP_URL) return 'smtp';
	return config.sandbox ? 'mailbox' : 'off';
}

/** False in production without `SMTP_URL`: the console says mail is off and offers copy-link. */
export function mailEnabled(ctx: Pick<AppContext, 'config'>): boolean {
	return mailMode(ctx.config) !== 'off';
}
