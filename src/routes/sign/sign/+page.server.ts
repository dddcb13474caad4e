import { fail, redirect, type RequestEvent } from '@sveltejs/kit';
import * as v from 'valibot';
import { app } from '$lib/server/app';
import { AlreadyDecidedError, recordDecision } from '$lib/server/decisions/decisions';
import { deliverDecision } from '$lib/server/decisions/delivery';
import { receiptFor } from '$lib/server/decisions/receipt';
import { applicationPdfForDecision, offeredPdf } from '$lib/server/evidence';
import { clientIp, requestMeta } from '$lib/server/http/meta';
import { logError } from '$lib/server/log/log';
import { hit, waitWords } from '$lib/server/ratelimit/ratelimit';
import { fullName } from '$lib/server/signing/application';
import { requireStep } from '$lib/server/signing/guard';
import { noSections, type SectionKey } from '$lib/server/signing/sections';
import { keptReason } from '$lib/server/signing/decline-form';
import type { SigningSession } from '$lib/server/signing/session';
import { signatureMatches } from '$lib/server/signing/signature';
import { typedBack } from '$lib/server/signing/ssn';
import { draftOf, keepEndedDraft, saveDraft } from '$lib/server/signing/draft';
import {
	DeclineReasonSchema,
	SignatureSchema,
	SignerSchema,
	fieldErrors,
	keptValues
} from './schema';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	const s = requireStep(event, 'sign');
	let pdf: { pages: number } | null = null;
	try {
		// Offered here, so the copy the merchant opens is the one the decision records.
		pdf = { pages: (await offeredPdf(app(), s)).pages };
	} catch (err) {
		logError('evidence', 'the application PDF could not be offered', err);
	}
	const draft = draftOf(s);
	return {
		sections: (s.termsShown ?? []).map(({ key, title }) => ({ key, title })),
		owner: fullName(s.ownerFirstName, s.ownerLastName),
		pdf,
		draft,
		// Decline's first press lands here (`?decline`) by a redirect, so that the browser's Back
		// from the done page finds a page it can show again, not a post to send again.
		declining: event.url.searchParams.has('decline'),
		ssnTyped: draft.ssnTyped === true
	};
};

/**
 * What was typed, to keep while the merchant reads again or thinks about declining. The SSN is
 * never kept: whether one was typed is (in this post or one before it, from the page that came
 * back empty after the documents were read again), so that the page asks for it again.
 */
function draftFrom(form: Record<string, FormDataEntryValue>, session: SigningSession) {
	const presented = session.termsShown ?? [];
	return {
		...keptValues(form),
		signature: typedBack(form, 'signature', 300),
		checked: presented.filter((p) => form[`section-${p.key}`] === 'yes').map((p) => p.key),
		ssnTyped: ssnSent(form) || session.draft?.ssnTyped === true
	};
}

/**
 * The sign step's session for an action. A post from a page whose session has ended (idle, or
 * the day's limit: Accept pressed after a long read elsewhere) is still turned away, but what it
 * held (never the SSN, nor the ticks) is kept for the next session on the same link, and the
 * page that says it ended says so.
 */
async function signStep(event: RequestEvent): Promise<SigningSession> {
	const ended = event.locals.signingEnded;
	if (!event.locals.signing && ended && (ended.end === 'idle' || ended.end === 'expired')) {
		const form = Object.fromEntries(await event.request.formData());
		ended.kept = await keepEndedDraft(app().db, ended.sessionId, {
			...keptValues(form),
			signature: typedBack(form, 'signature', 300),
			checked: []
		});
	}
	return requireStep(event, 'sign');
}

/**
 * Counts a decision post that passed validation: typos and the first press of Decline are not
 * the abuse this limit is for, so they do not use it up.
 */
async function limited(session: SigningSession) {
	const ctx = app();
	const r = await hit(ctx.db, {
		key: `decision:${session.officeId}:${session.applicationId}`,
		max: ctx.config.RATE_LIMIT_DECISION,
		windowSeconds: 3600
	});
	if (r.ok) return null;
	return fail(429, {
		message: `Too many tries for this application. Please try again in ${waitWords(r.retryAfterSeconds)}.`
	});
}

/** Records, then tries to deliver at once; whatever the service does, the decision is kept. */
async function decide(
	event: RequestEvent,
	session: SigningSession,
	input: Parameters<typeof recordDecision>[3]
) {
	const ctx = app();
	try {
		const applicationPdf = await applicationPdfForDecision(ctx, session);
		const receipt = await receiptFor(ctx, session, input, event.url.origin);
		const decision = await recordDecision(
			ctx.db,
			ctx.encryptionKey,
			session,
			{ ...input, applicationPdf },
			requestMeta(event),
			new Date(),
			receipt
		);
		try {
			await deliverDecision(ctx, decision.id);
		} catch (err) {
			// Recorded is what matters here; the worker delivers it later.
			logError('decision', 'immediate delivery failed, the worker retries it', err);
		}
	} catch (err) {
		if (err instanceof AlreadyDecidedError)
			return fail(409, { message: err.message + ' Your sales representative can tell you more.' });
		throw err;
	}
	redirect(303, '/sign/done');
}

/**
 * The service takes a decision only with the signer's address (`IPAddress`), and one without it
 * would be refused for good. With none known (a proxy that does not set ADDRESS_HEADER; clientIp
 * logs it for the operator), nothing is recorded and the page keeps what was typed.
 */
const NO_ADDRESS =
	'We can’t record your decision right now because of a problem on our side, so nothing was recorded. What you typed is kept: try again in a few minutes, or contact your sales representative.';

/**
 * Whether the post carried an SSN, which never comes back: the page then asks for it again, and
 * says why. Only whether, never what.
 */
const ssnSent = (form: Record<string, FormDataEntryValue>) =>
	typeof form.ssn === 'string' && form.ssn.trim() !== '';

export const actions: Actions = {
	review: async (event) => {
		const session = await signStep(event);
		const form = Object.fromEntries(await event.request.formData());
		await saveDraft(app().db, session, draftFrom(form, session));
		redirect(303, '/sign/review');
	},
	accept: async (event) => {
		const session = await signStep(event);
		const form = Object.fromEntries(await event.request.formData());
		const values = keptValues(form);
		const presented = session.termsShown ?? [];
		const checked = presented.filter((p) => form[`section-${p.key}`] === 'yes').map((p) => p.key);
		const errors: Record<string, string> = {};
		for (const p of presented) {
			if (!checked.includes(p.key))
				errors[`section-${p.key}`] = `Tick to confirm you accept the ${p.title} section.`;
		}
		const parsed = v.safeParse(SignerSchema, form);
		if (!parsed.success) Object.assign(errors, fieldErrors(parsed.issues));
		const signature = v.safeParse(SignatureSchema, form.signature);
		// The names alone, so that a signature unlike them is said in the same round as any other
		// field's problem (an SSN mistyped, say), not only once the rest is right.
		const first = v.safeParse(SignerSchema.entries.firstName, form.firstName);
		const last = v.safeParse(SignerSchema.entries.lastName, form.lastName);
		if (!signature.success) errors.signature = signature.issues[0].message;
		else if (
			first.success &&
			last.success &&
			!signatureMatches(signature.output, first.output, last.output)
		) {
			errors.signature = `Type your first and last name as given above (${first.output} ${last.output}) to sign.`;
		}
		if (!parsed.success || !signature.success || Object.keys(errors).length > 0) {
			// Kept as the page's draft too: a reload shows what was typed last, not an older draft
			// (one saved on the way to reading the documents again) or the application's names.
			await saveDraft(app().db, session, draftFrom(form, session));
			const typed = typedBack(form, 'signature', 300);
			return fail(400, {
				action: 'accept' as const,
				values,
				checked,
				errors,
				signature: typed,
				ssnSent: ssnSent(form)
			});
		}
		if (clientIp(event) === null) {
			await saveDraft(app().db, session, draftFrom(form, session));
			return fail(503, {
				action: 'accept' as const,
				values,
				checked,
				errors: {},
				signature: typedBack(form, 'signature', 300),
				message: NO_ADDRESS,
				ssnSent: ssnSent(form)
			});
		}
		const tooMany = await limited(session);
		if (tooMany) return tooMany;
		const flags = noSections();
		for (const key of checked) flags[key as SectionKey] = true;
		return decide(event, session, {
			...parsed.output,
			isAccepted: true,
			flags,
			declineReason: null,
			signature: signature.output
		});
	},
	decline: async (event) => {
		const session = await signStep(event);
		const form = Object.fromEntries(await event.request.formData());
		// The first press only asks once more; nothing is recorded until it is confirmed. What was
		// typed is kept, so going back from the question loses nothing.
		if (form.confirm === undefined) {
			await saveDraft(app().db, session, draftFrom(form, session));
			redirect(303, '/sign/sign?decline');
		}
		const values = keptValues(form);
		const reasonInput = typeof form.reason === 'string' ? form.reason : '';
		if (form.confirm !== 'yes') {
			// The question's own form, changed on the way: asked again, with what was typed.
			return fail(400, {
				action: 'decline' as const,
				declining: true,
				values,
				reason: keptReason(reasonInput),
				errors: {},
				message:
					'This form came back changed, so nothing was recorded. Press “Yes, decline” again.',
				ssnSent: ssnSent(form)
			});
		}
		const parsed = v.safeParse(SignerSchema, form);
		const reason = v.safeParse(DeclineReasonSchema, reasonInput);
		const errors = {
			...(parsed.success ? {} : fieldErrors(parsed.issues)),
			...(reason.success ? {} : { reason: reason.issues[0].message })
		};
		if (!parsed.success || !reason.success) {
			return fail(400, {
				action: 'decline' as const,
				declining: true,
				values,
				// Typed text comes back, but never what looks like an SSN.
				reason: keptReason(reasonInput),
				errors,
				ssnSent: ssnSent(form)
			});
		}
		if (clientIp(event) === null) {
			return fail(503, {
				action: 'decline' as const,
				declining: true,
				values,
				reason: keptReason(reasonInput),
				errors: {},
				message: NO_ADDRESS,
				ssnSent: ssnSent(form)
			});
		}
		const tooMany = await limited(session);
		if (tooMany) return tooMany;
		return decide(event, session, {
			...parsed.output,
			isAccepted: false,
			flags: noSections(),
			declineReason: reason.output || null
		});
	}
};
