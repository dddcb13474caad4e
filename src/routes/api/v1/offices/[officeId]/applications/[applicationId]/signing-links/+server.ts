import { json, type RequestHandler } from '@sveltejs/kit';
import * as v from 'valibot';
import { app } from '$lib/server/app';
import { parseJsonBody, reasonsByField } from '$lib/server/http/inputs';
import { authorizeOperator } from '$lib/server/http/operator-auth';
import { requestMeta } from '$lib/server/http/meta';
import { issueLink } from '$lib/server/links/ending';
import {
	BY_OPERATOR_API,
	BY_START_DEMO,
	declinedSinceLastLink,
	replacesEarlier
} from '$lib/server/links/links';
import { sendLinkMail } from '$lib/server/links/mail';
import { isDecided, officeUnknown } from '$lib/server/onboarding';
import { businessName, findApplication, greetingFor } from '$lib/server/signing/application';
import { decisionFor } from '$lib/server/decisions/decisions';
import { orOffice, repContact } from '$lib/server/reps/contact';
import { BodySchema, ParamsSchema } from './schema';
import { reasons, unknownFields } from '$lib/server/http/api-reasons';

/** Sent by `npm start` with `start` for its demo link (below). */
const START_DEMO_HEADER = 'x-portal-demo';

const problem = (status: number, message: string, errors?: Record<string, string[]>) =>
	json({ message, ...(errors ? { errors } : {}) }, { status });

export const POST: RequestHandler = async (event) => {
	const ctx = app();
	const refused = await authorizeOperator(ctx, event);
	if (refused) return refused;
	const params = v.safeParse(ParamsSchema, event.params);
	// Checked once already for every request (hooks); parsed again here, where it is used.
	const raw = parseJsonBody(await event.request.text());
	if (!raw.ok) {
		const errors = reasonsByField<string[]>();
		if (!params.success) Object.assign(errors, reasons(params.issues));
		for (const [k, m] of Object.entries(raw.problem.errors)) errors[k] = [m];
		return problem(raw.problem.status, raw.problem.message, errors);
	}
	// Every problem of the request at once: the path's, each field's, and each unknown field.
	const errors = reasonsByField<string[]>();
	if (!params.success) Object.assign(errors, reasons(params.issues));
	// Valibot's object schemas take arrays too; an array is not a link request.
	const isObject = typeof raw.value === 'object' && raw.value !== null && !Array.isArray(raw.value);
	// One reason per field: a line break is not also named a letter outside ASCII.
	const body = isObject ? v.safeParse(BodySchema, raw.value, { abortPipeEarly: true }) : null;
	if (!isObject) errors.body = ['must be a JSON object'];
	else {
		Object.assign(errors, unknownFields(raw.value as object, Object.keys(BodySchema.entries)));
		if (!body!.success) Object.assign(errors, reasons(body!.issues));
	}
	const now = new Date();
	const latest = new Date(now.getTime() + ctx.config.LINK_TTL_HOURS * 3_600_000);
	// Its range is judged whatever else is wrong, so one answer names every field to mend.
	const when = isObject
		? v.safeParse(BodySchema.entries.expiresAt, (raw.value as { expiresAt?: unknown }).expiresAt)
		: null;
	const expiresAt = when?.success ? when.output : undefined;
	if (expiresAt && (expiresAt <= now || expiresAt > latest)) {
		errors.expiresAt = [`must be in the future and no later than ${latest.toISOString()}`];
	}
	if (!params.success || !body?.success || Object.keys(errors).length > 0) {
		return problem(
			400,
			params.success ? 'The body is invalid.' : 'The request is invalid.',
			errors
		);
	}
	const { officeId, applicationId } = params.output;

	let application;
	try {
		application = await findApplication(ctx, officeId, applicationId, { fresh: true });
	} catch (err) {
		// A 404 to the office's whole list: the office is unknown there, or the portal asks the
		// wrong address (a base URL without its path answers 404 to everything).
		if (officeUnknown(err)) {
			return problem(
				404,
				`The Onboarding Service answered 404 to office ${officeId}'s list of applications: it does not know that office, or ONBOARDING_BASE_URL is not its address. Nothing was created.`
			);
		}
		return problem(
			502,
			'The Onboarding Service could not be reached; nothing was created. Try again shortly.'
		);
	}
	if (!application) return problem(404, `Office ${officeId} has no application ${applicationId}.`);
	if (isDecided(application) || (await decisionFor(ctx.db, officeId, applicationId))) {
		return problem(
			409,
			'A decision is already recorded for this application; no link was created.'
		);
	}

	const keep = body.output.replace === false;
	// An operator's system that keeps links out (replace: false) sends none to a merchant who said no.
	if (keep && (await declinedSinceLastLink(ctx.db, officeId, applicationId))) {
		return problem(
			409,
			'The merchant declined this application after its last link, so it was left as it is and no link was created ("replace": false). Without "replace": false a new link is made, as for a merchant who asked for one.'
		);
	}
	const email = body.output.email ?? null;
	// The demo link `npm start` prints (scripts/start.js) says so, on embedded defaults only: the
	// console then names it a demo link, not one from the operator's systems. Elsewhere the header
	// changes nothing.
	const demo = ctx.config.sandbox && event.request.headers.get(START_DEMO_HEADER) === 'start';
	const created = await issueLink(
		ctx,
		{
			officeId,
			applicationId,
			email,
			createdBy: demo ? BY_START_DEMO : BY_OPERATOR_API,
			ttlHours: ctx.config.LINK_TTL_HOURS,
			expiresAt,
			meta: requestMeta(event),
			keep
		},
		now
	);
	if (!created.ok) {
		return problem(
			409,
			created.reason === 'tablet'
				? 'A rep has handed a tablet to the merchant for this application, to sign in person, so no link was created: a link would run beside that signing. Ask again once the merchant has finished or the rep has taken the tablet back.'
				: 'The application has a link that can still be opened, so it was left as it is and no link was created ("replace": false).'
		);
	}
	const { token, link } = created;
	const url = `${event.url.origin}/s/${token}`;
	const mail = email
		? await sendLinkMail(ctx, {
				to: email,
				url,
				business: businessName(application),
				greet: greetingFor(application, email),
				expiresAt: link.expiresAt,
				officeId,
				applicationId,
				linkId: link.id,
				rep:
					orOffice(ctx, await repContact(ctx.db, officeId, Number(application.RepNo))) ?? undefined,
				replacesEarlier: await replacesEarlier(ctx.db, created)
			})
		: undefined;
	return json(
		{
			url,
			expiresAt: link.expiresAt.toISOString(),
			// How many earlier links of the application this one ended: a retried request that made
			// a second link says it replaced the first (whose email, if not yet sent, is not sent).
			replaced: created.replaced.length,
			...(mail ? { mail } : {})
		},
		{ status: 201 }
	);
};

export const fallback: RequestHandler = ({ request }) =>
	new Response(JSON.stringify({ message: `${request.method} is not allowed here; use POST.` }), {
		status: 405,
		headers: { 'content-type': 'application/json', allow: 'POST' }
	});
