import * as v from 'valibot';
import { plainEmail, shortLocalPart } from '$lib/email';
import { noSymbol, withoutInvisible } from '$lib/server/printable';
import { noSsn } from '$lib/server/signing/ssn';

/** A rep's name and address go on the record, where nothing may look like an SSN. */
const NO_SSN = 'may not hold anything that looks like a Social Security Number';

/** What an operator types for a rep. Messages leave out the field: the caller names it. */

/** A number as typed, its example the kind of number asked for (an office's, a rep's). */
const wholeNumber = (example: string) =>
	v.pipe(
		v.string('is required'),
		v.trim(),
		v.regex(/^\d+$/, `must be a whole number such as ${example}`),
		// One over nine digits is too large, not "no number" (PostgreSQL's integer holds nine).
		v.regex(/^\d{1,9}$/, 'is too large (at most 9 digits)'),
		v.transform(Number)
	);

export const OfficeIdSchema = v.pipe(wholeNumber('1207'), v.minValue(1, 'must be at least 1'));
export const RepNoSchema = wholeNumber('31');

export const EmailSchema = v.pipe(
	v.string('is required'),
	v.trim(),
	v.nonEmpty('is required'),
	v.maxLength(254, 'is too long (at most 254 characters)'),
	plainEmail('must be written with the letters a–z, digits and ASCII punctuation only'),
	v.email('must be an email address such as sam@example.com'),
	shortLocalPart(
		'is too long before the @ (at most 64 characters there): mail cannot be sent to it'
	),
	noSsn(NO_SSN)
);

export const NameSchema = v.pipe(
	v.string('is required'),
	withoutInvisible(),
	v.trim(),
	v.nonEmpty('is required'),
	v.maxLength(100, 'is too long (at most 100 characters)'),
	v.regex(/^[^\p{Cc}<>]+$/u, 'may not contain control characters or < >'),
	// The rep's name goes on the certificates, whose fonts print no emoji.
	noSymbol('may not contain emoji or symbols: it goes on the certificates'),
	noSsn(NO_SSN)
);

export const PhoneSchema = v.pipe(
	v.string(),
	v.trim(),
	v.maxLength(25, 'is too long (at most 25 characters)'),
	v.regex(
		/^\+?[0-9 ().-]{7,25}$/,
		'must be digits with spaces, dashes or brackets, such as (217) 555-0100'
	)
);

/**
 * NIST SP 800-63B (rev. 4): at least 15 characters for a password that is the only factor, any
 * characters allowed, no composition rules. The upper bound only keeps hashing cheap to refuse.
 */
export const PASSWORD_MIN = 15;
export const PasswordSchema = v.pipe(
	v.string('is required'),
	v.minLength(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`),
	v.maxLength(256, 'is too long (at most 256 characters)'),
	// Spaces count among the characters, but fifteen of them alone are no secret.
	v.check((s) => s.trim() !== '', 'must be more than spaces')
);

export const NewRepSchema = v.object({
	officeId: OfficeIdSchema,
	repNo: RepNoSchema,
	email: EmailSchema,
	name: NameSchema,
	phone: v.optional(PhoneSchema)
});
export type NewRep = v.InferOutput<typeof NewRepSchema>;

/** The first issue of each field, in our words, after its label: `--email: must be …`. */
export function issueLines(issues: v.BaseIssue<unknown>[], label: (key: string) => string) {
	const seen = new Set<string>();
	const lines: string[] = [];
	for (const issue of issues) {
		const key = v.getDotPath(issue) ?? '';
		if (seen.has(key)) continue;
		seen.add(key);
		lines.push(`${label(key)}: ${issue.message}`);
	}
	return lines;
}
