import { json } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { mailMode } from '$lib/server/mail/mode';
import { mailRetrying } from '$lib/server/mail/status';

/**
 * 200 once the database answers. `mailRetrying` counts mail waiting to be tried again after a
 * failure: the portal itself is well then, so the answer stays 200.
 */
export async function GET() {
	const ctx = app();
	return json({
		ok: true,
		sandbox: ctx.config.sandbox,
		database: ctx.database.kind,
		mail: mailMode(ctx.config),
		mailRetrying: await mailRetrying(ctx.db)
	});
}
