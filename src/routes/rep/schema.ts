import * as v from 'valibot';
import { STATE_KINDS } from '$lib/server/console/state';

/** The console's GET form: search text and a state, both optional. */
export const ConsoleQuerySchema = v.object({
	q: v.optional(
		v.pipe(
			v.string('Type the search as text.'),
			v.trim(),
			v.maxLength(100, 'The search is too long (at most 100 characters).')
		),
		''
	),
	state: v.optional(
		v.union(
			[v.literal(''), v.picklist(STATE_KINDS)],
			'That is not one of the states in the list: choose one there.'
		),
		''
	)
});
