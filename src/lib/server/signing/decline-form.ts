import { fail, redirect, type RequestEvent } from '@sveltejs/kit';
import * as v from 'valibot';
import { DECLINE_ON_SIGN_STEP } from './decline';
import { noSsn, shownBackCut } from './ssn';

/**
 * A browser sends a textarea's line breaks as two characters, and its maxlength counts one:
 * counted as sent, a reason the box allowed was refused as too long without script.
 */
const oneCharacterBreaks = (s: string) => s.replace(/\r\n?/g, '\n');

export const DeclineReasonSchema = v.optional(
	v.pipe(
		v.string('Write the reason as text, or leave it empty.'),
		v.transform(oneCharacterBreaks),
		v.trim(),
		v.maxLength(1000, 'Keep the reason to 1,000 characters or fewer.'),
		// The reason reaches the rep and the records: it is no place for an SSN. Phone numbers and
		// other ordinary text are welcome.
		noSsn('Please leave your Social Security Number out of the reason: it looks like one is there.')
	),
	''
);

/**
 * Typed text comes back after a refusal, but never what looks like an SSN; cut to what the box
 * holds, its line breaks counted once as the box and the schema count them.
 */
export function keptReason(input: string): string {
	return shownBackCut(oneCharacterBreaks(input), 1000);
}

/**
 * Reads "I don't want to sign" from any step before identity: the optional reason, or a 400 that
 * keeps what was typed. The caller records it; this only parses.
 */
export async function readDecline(event: RequestEvent) {
	const form = await event.request.formData();
	const raw = form.get('reason');
	const input = typeof raw === 'string' ? raw : '';
	const parsed = v.safeParse(DeclineReasonSchema, input);
	if (parsed.success) return { ok: true as const, reason: parsed.output || null };
	return {
		ok: false as const,
		failure: fail(400, {
			decline: { reason: keptReason(input), error: parsed.issues[0].message }
		})
	};
}

/**
 * A "no" without the SSN refused once identity has passed (identityCarries, decline.ts): the
 * reason stays as typed, and the message says where to decline instead.
 */
export function declineOnSignStep(reason: string | null) {
	return fail(409, { decline: { reason: reason ?? '', error: DECLINE_ON_SIGN_STEP } });
}

/** Where every decline ends: the done page, which says it is recorded and what happens next. */
export function toDone(): never {
	redirect(303, '/sign/done');
}
