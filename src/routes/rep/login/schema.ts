import * as v from 'valibot';
import { looksLikeSsn, noSsn } from '$lib/server/signing/ssn';

/** Only the shape: whether the account exists and the password is right is the domain's answer. */
export const SignInSchema = v.object({
	email: v.pipe(
		v.optional(v.string('Enter your email.'), ''),
		v.trim(),
		v.nonEmpty('Enter your email.'),
		v.maxLength(254, 'That is too long for an email address.'),
		// No rep's address holds one (the reps CLI refuses it): never counted, kept or shown back.
		noSsn('That looks like a Social Security Number, not your email. Enter your email.'),
		// Not an address at all (a name, a typo'd paste): said so, and not counted as a try. One
		// reason per field: nothing typed, or an SSN, is said above.
		v.check(
			(s) => s === '' || looksLikeSsn(s) || /^[^\s@]+@[^\s@]+$/.test(s),
			'Enter your email address, such as sam@example.com.'
		)
	),
	password: v.pipe(
		v.optional(v.string('Enter your password.'), ''),
		v.nonEmpty('Enter your password.'),
		v.maxLength(256, 'That is too long for a password.')
	)
});
