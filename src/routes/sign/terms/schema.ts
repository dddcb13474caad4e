import * as v from 'valibot';

const STALE = 'The page is out of date. Reload it and try again.';

// Missing fields arrive as undefined: read them as empty so the messages below are the ones shown.
export const ConsentSchema = v.object(
	{
		consent: v.pipe(
			v.optional(
				v.string('Tick the box to agree to use electronic records before you continue.'),
				''
			),
			v.check(
				(s) => s === 'yes',
				'Tick the box to agree to use electronic records before you continue.'
			)
		),
		version: v.pipe(v.optional(v.string(STALE), ''), v.regex(/^[0-9a-f]{64}$/, STALE))
	},
	STALE
);
