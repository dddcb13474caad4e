import { error, type RequestHandler } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { isUuid } from '$lib/server/db/uuid';
import { mailMode } from '$lib/server/mail/mode';
import { mailboxBody } from '$lib/server/mail/status';

/**
 * A kept message's HTML, as a mail client would show it. It is a page of its own rather than part
 * of the mailbox page because email HTML needs inline styles, which the portal's CSP refuses; this
 * response gets a CSP of its own that allows them and nothing else (no scripts, no fetches).
 */
export const GET: RequestHandler = async ({ params }) => {
	const ctx = app();
	if (mailMode(ctx.config) !== 'mailbox' || !isUuid(params.id ?? '')) {
		error(404, { message: 'Not found' });
	}
	const body = await mailboxBody(ctx, params.id!);
	if (!body?.html) error(404, { message: 'Not found' });
	return new Response(body.html, {
		headers: {
			'content-type': 'text/html; charset=utf-8',
			'cache-control': 'no-store',
			'content-security-policy':
				"default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
		}
	});
};
