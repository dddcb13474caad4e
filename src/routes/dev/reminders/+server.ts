import { json, type RequestHandler } from '@sveltejs/kit';
import * as v from 'valibot';
import { app } from '$lib/server/app';
import { authorizeOperator } from '$lib/server/http/operator-auth';
import { queueDueReminders } from '$lib/server/links/reminders';
import { deliverMailDue } from '$lib/server/mail/deliver';

const BodySchema = v.strictObject({
	at: v.pipe(
		v.string('must be an ISO 8601 date-time'),
		v.isoTimestamp('must be an ISO 8601 date-time such as 2026-12-01T17:00:00Z'),
		v.transform((s) => new Date(s))
	)
});

/**
 * Embedded defaults only (the sandbox), with the operator key: runs the worker's reminder and mail
 * steps as if it were `at`, so a reminder days away can be seen now (by hand, or by an
 * end-to-end test). Against the real service this address does not exist.
 */
export const POST: RequestHandler = async (event) => {
	const { request } = event;
	const ctx = app();
	if (!ctx.config.sandbox) return json({ message: 'Not found' }, { status: 404 });
	// Wrong keys are counted here too: this is one more place to try the operator key.
	const refused = await authorizeOperator(ctx, event);
	if (refused) return refused;
	let raw: unknown;
	try {
		raw = await request.json();
	} catch {
		return json(
			{ message: 'The body must be a JSON object such as {"at": "…"}.' },
			{ status: 400 }
		);
	}
	const body = v.safeParse(BodySchema, raw);
	if (!body.success) {
		return json(
			{ message: 'The body is invalid.', errors: { at: [body.issues[0].message] } },
			{ status: 400 }
		);
	}
	const reminders = await queueDueReminders(ctx, body.output.at);
	const mail = await deliverMailDue(ctx, body.output.at);
	return json({ reminders, mail });
};
