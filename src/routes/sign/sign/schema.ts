import * as v from 'valibot';
import { reasonsByField } from '$lib/server/http/inputs';
import { isPossibleSsn, looksLikeSsn, ssnDigits } from '$lib/server/signing/ssn';

const name = (what: string) =>
	v.pipe(
		v.optional(v.string(`Enter your ${what}.`), ''),
		v.trim(),
		v.nonEmpty(`Enter your ${what}.`),
		v.maxLength(100, `Your ${what} must be 100 characters or fewer.`)
	);

const email = (what: string) =>
	v.pipe(
		v.optional(v.string(`Enter ${what}.`), ''),
		v.trim(),
		v.nonEmpty(`Enter ${what}.`),
		v.maxLength(254, `${what} is too long.`),
		v.email(`Enter ${what} in the form name@example.com.`)
	);

export const SignerSchema = v.object({
	firstName: name('first name'),
	lastName: name('last name'),
	email: email('your email address'),
	notificationEmail: email('an email address for notices'),
	ssn: v.pipe(
		v.optional(v.string('Enter your Social Security Number.'), ''),
		v.transform(ssnDigits),
		v.nonEmpty('Enter your Social Security Number.'),
		v.regex(/^\d{9}$/, 'Enter the 9 digits of your Social Security Number.'),
		v.check(isPossibleSsn, 'That isn’t a valid Social Security Number. Check the digits.')
	)
});

export const SignatureSchema = v.pipe(
	v.optional(v.string('Type your full name to sign.'), ''),
	v.trim(),
	v.transform((s) => s.replace(/\s+/g, ' ')),
	v.nonEmpty('Type your full name to sign.'),
	v.maxLength(210, 'Your signature must be 210 characters or fewer.')
);

export const DeclineReasonSchema = v.optional(
	v.pipe(
		v.string(),
		v.trim(),
		v.maxLength(1000, 'Keep the reason to 1,000 characters or fewer.'),
		// The reason reaches the rep and the records: it is no place for an SSN. Phone numbers and
		// other ordinary text are welcome.
		v.check(
			(s) => !looksLikeSsn(s),
			'Please leave your Social Security Number out of the reason: it looks like one is there.'
		)
	),
	''
);

/** What goes back to the page after an error: every field as typed, never the SSN. */
export type SignerValues = Record<'firstName' | 'lastName' | 'email' | 'notificationEmail', string>;

/** Field errors by name, the first message of each. */
export function fieldErrors(issues: v.BaseIssue<unknown>[]): Record<string, string> {
	const out = reasonsByField();
	for (const issue of issues) {
		const key = v.getDotPath(issue) ?? 'form';
		out[key] ??= issue.message;
	}
	return out;
}

/** What was typed, to keep on the page after an error — never the SSN. */
export function keptValues(form: Record<string, FormDataEntryValue>): SignerValues {
	const text = (k: string) =>
		typeof form[k] === 'string' ? (form[k] as string).slice(0, 300) : '';
	return {
		firstName: text('firstName'),
		lastName: text('lastName'),
		email: text('email'),
		notificationEmail: text('notificationEmail')
	};
}
