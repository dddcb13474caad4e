import * as v from 'valibot';
import { plainEmail, shortLocalPart } from '$lib/email';
import { capital } from '$lib/text';
import { reasonsByField } from '$lib/server/http/inputs';
import { nameCharacters, withoutInvisible } from '$lib/server/printable';
import { isPossibleSsn, noSsn, ssnDigits, typedBack } from '$lib/server/signing/ssn';

const nameCharactersIn = (what: string) =>
	nameCharacters(
		`Type your ${what} using letters, spaces, hyphens, apostrophes, full stops and commas only: emoji, symbols and other marks can’t go on your documents.`
	);

/** Names, addresses and the signature go on the record, where nothing may look like an SSN. */
const noSsnIn = (what: string) =>
	noSsn(
		`Please leave your Social Security Number out of your ${what}: it looks like one is there.`
	);

/** A name of digits or punctuation alone ("123", "---") is no one's: it went on the documents. */
const someLetter = (what: string) =>
	v.check((s: string) => /\p{L}/u.test(s), `Your ${what} needs at least one letter.`);

const name = (what: string) =>
	v.pipe(
		v.optional(v.string(`Enter your ${what}.`), ''),
		withoutInvisible(),
		v.trim(),
		v.nonEmpty(`Enter your ${what}.`),
		v.maxLength(100, `Your ${what} must be 100 characters or fewer.`),
		nameCharactersIn(what),
		// Before the letter: an SSN alone in the field is told as what it is.
		noSsnIn(what),
		someLetter(what)
	);

const email = (what: string) => {
	const What = capital(what);
	return v.pipe(
		v.optional(v.string(`Enter ${what}.`), ''),
		v.trim(),
		v.nonEmpty(`Enter ${what}.`),
		v.maxLength(254, `${What} is too long.`),
		plainEmail(
			`Write ${what} with the letters a–z, digits and . _ - + @ only: an address with other letters can’t be used here.`
		),
		v.email(`Enter ${what} in the form name@example.com.`),
		shortLocalPart(
			`${What} is too long before the @ (at most 64 characters there): mail can’t be sent to it.`
		),
		noSsn(`${What} looks like it holds a Social Security Number: please use another address.`)
	);
};

export const SignerSchema = v.object(
	{
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
	},
	'The page is out of date. Reload it and try again.'
);

export const SignatureSchema = v.pipe(
	v.optional(v.string('Type your full name to sign.'), ''),
	withoutInvisible(),
	v.trim(),
	v.transform((s) => s.replace(/\s+/g, ' ')),
	v.nonEmpty('Type your full name to sign.'),
	v.maxLength(210, 'Your signature must be 210 characters or fewer.'),
	nameCharactersIn('signature'),
	noSsnIn('signature'),
	someLetter('signature')
);

export { DeclineReasonSchema } from '$lib/server/signing/decline-form';

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

/** What was typed, to keep on the page after an error — never the SSN, nor one typed elsewhere. */
export function keptValues(form: Record<string, FormDataEntryValue>): SignerValues {
	const text = (k: string) => typedBack(form, k, 300);
	return {
		firstName: text('firstName'),
		lastName: text('lastName'),
		email: text('email'),
		notificationEmail: text('notificationEmail')
	};
}
