import { json, type RequestHandler } from '@sveltejs/kit';
import * as v from 'valibot';
import { app } from '$lib/server/app';
import { reasons, unknownFields } from '$lib/server/http/api-reasons';
import { isoInstant } from '$lib/server/http/instant';
import { authorizeOperator } from '$lib/server/http/operator-auth';
import { queueDueReminders } from '$lib/server/links/reminders';
import { deliverMailDue } from '$lib/server/mail/deliver';

const BodySchema = v.object(
	{
		at: v.pipe(
			// Missing, it is '' here: valibot would name a missing key in the object's message.
			v.optional(v.string('must be an ISO 8601 date-time'), ''),
			v.nonEmpty('is required: an ISO 8601 date-time such as 2026-12-01T17:00:00Z'),
			isoInstant()
		)
	},
	'must be a JSON object such as {"at": "…"}'
);

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
	// One reason per field: a missing time is not also a malformed one.
	const body = v.safeParse(BodySchema, raw, { abortPipeEarly: true });
	const extra =
		typeof raw === 'object' && raw !== null && !Array.isArray(raw)
			? unknownFields(raw, Object.keys(BodySchema.entries))
			: { body: ['must be a JSON object such as {"at": "…"}'] };
	if (!body.success || Object.keys(extra).length > 0) {
		return json(
			{
				message: 'The body is invalid.',
				errors: { ...(body.success ? {} : reasons(body.issues)), ...extra }
			},
			{ status: 400 }
		);
	}
	const reminders = await queueDueReminders(ctx, body.output.at);
	const mail = await deliverMailDue(ctx, body.output.at);
	return json({ reminders, mail });
};

export const fallback: RequestHandler = ({ request }) =>
	json(
		{ message: `${request.method} is not allowed here; use POST.` },
		{ status: 405, headers: { allow: 'POST' } }
	);
