import * as v from 'valibot';

/** Only the shape: whether the account exists and the password is right is the domain's answer. */
export const SignInSchema = v.object({
	email: v.pipe(
		v.optional(v.string('Enter your email.'), ''),
		v.trim(),
		v.nonEmpty('Enter your email.'),
		v.maxLength(254, 'That is too long for an email address.')
	),
	password: v.pipe(
		v.optional(v.string('Enter your password.'), ''),
		v.nonEmpty('Enter your password.'),
		v.maxLength(256, 'That is too long for a password.')
	)
});
