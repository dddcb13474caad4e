import * as v from 'valibot';

export const UnlockSchema = v.object({
	password: v.pipe(
		v.optional(v.string('Enter your password.'), ''),
		v.nonEmpty('Enter your password.'),
		v.maxLength(256, 'That is too long for a password.')
	)
});

/** Why the tablet locks from a signing page: "Return to rep", or the page's idle timer. */
export const LockSchema = v.object({
	reason: v.optional(
		v.picklist(['returned', 'idle'], 'The reason must be “returned” or “idle”.'),
		'returned'
	)
});
