import * as v from 'valibot';

export const UnlockSchema = v.object({
	password: v.pipe(
		v.optional(v.string('Enter your password.'), ''),
		v.nonEmpty('Enter your password.'),
		v.maxLength(256, 'That is too long for a password.')
	)
});

/**
 * Why the tablet locks from a signing page: "Return to rep", or the page's idle timer. A reason
 * the pages never send (a forged post) still locks it, as "Return to rep": refusing would leave
 * the tablet open in the merchant's hands, and its page (now the signing step's) saying nothing.
 */
export const LockSchema = v.object({
	reason: v.fallback(v.optional(v.picklist(['returned', 'idle']), 'returned'), 'returned')
});
