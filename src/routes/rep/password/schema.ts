import * as v from 'valibot';
import { PASSWORD_MIN } from '$lib/server/reps/schemas';

const MAX = 256;

/**
 * A rep's change of their own password: the current one (checked by the domain, as at sign-in),
 * the new one twice. The new one follows the reps CLI's rule (PasswordSchema): at least
 * PASSWORD_MIN characters, no composition rules.
 */
export const PasswordChangeSchema = v.pipe(
	v.object({
		current: v.pipe(
			v.optional(v.string('Enter your current password.'), ''),
			v.nonEmpty('Enter your current password.'),
			v.maxLength(MAX, 'That is too long for a password.')
		),
		password: v.pipe(
			v.optional(v.string('Enter a new password.'), ''),
			v.nonEmpty('Enter a new password.'),
			// Said of a password typed too short, not again of none at all.
			v.check(
				(s) => s === '' || s.length >= PASSWORD_MIN,
				`Use at least ${PASSWORD_MIN} characters.`
			),
			v.maxLength(MAX, `That is too long: use at most ${MAX} characters.`),
			// As the CLI's rule: spaces count, but spaces alone are no secret.
			v.check(
				(s) => s.length < PASSWORD_MIN || s.trim() !== '',
				'Use more than spaces: fifteen of them alone are easy to guess.'
			)
		),
		again: v.pipe(
			v.optional(v.string('Type the new password again.'), ''),
			v.nonEmpty('Type the new password again.')
		)
	}),
	v.forward(
		v.partialCheck(
			[['password'], ['again']],
			(i) => i.again === '' || i.password === i.again,
			'This is not the same as the new password above. Type both again.'
		),
		['again']
	),
	v.forward(
		v.partialCheck(
			[['current'], ['password']],
			(i) => i.password === '' || i.current !== i.password,
			'That is your current password: choose a new one.'
		),
		['password']
	)
);
