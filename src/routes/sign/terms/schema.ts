import * as v from 'valibot';

export const ConsentSchema = v.object({
	consent: v.literal('yes', 'Tick the box to agree to use electronic records before you continue.'),
	version: v.pipe(
		v.string('The page is out of date. Reload it and try again.'),
		v.regex(/^[0-9a-f]{64}$/, 'The page is out of date. Reload it and try again.')
	)
});
