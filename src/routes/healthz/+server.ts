import { json } from '@sveltejs/kit';
import { sql } from 'drizzle-orm';
import { app } from '$lib/server/app';
import { mailMode } from '$lib/server/mail/mode';

export async function GET() {
	const ctx = app();
	await ctx.db.execute(sql`select 1`);
	return json({
		ok: true,
		sandbox: ctx.config.sandbox,
		database: ctx.database.kind,
		mail: mailMode(ctx.config)
	});
}
