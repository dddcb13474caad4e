import * as v from 'valibot';
import { STATE_KINDS } from '$lib/server/console/state';
import { hasControlCharacter, hasUnreadable } from '$lib/server/http/inputs';

/** The console's GET form: search text and a state, both optional. */
export const ConsoleQuerySchema = v.object({
	q: v.optional(
		v.pipe(
			v.string('Type the search as text.'),
			v.check(
				(s) => !hasControlCharacter(s),
				'The search contains an invisible control character. Type it again.'
			),
			// Bytes in the address that were not UTF-8 read as U+FFFD: a search for what no one typed.
			v.check(
				(s) => !hasUnreadable(s),
				'The search has characters that could not be read (they were not sent as UTF-8). Type it again.'
			),
			v.trim(),
			v.maxLength(100, 'The search is too long (at most 100 characters).')
		),
		''
	),
	// A page of the list (PAGE_SIZE applications each); a number past the last shows the last.
	page: v.optional(
		v.pipe(
			v.string('The page must be a number.'),
			v.regex(/^\d{1,6}$/, 'The page must be a whole number from 1 up, such as 2.'),
			v.transform(Number),
			v.minValue(1, 'The pages are counted from 1.')
		),
		'1'
	),
	state: v.optional(
		v.union(
			[v.literal(''), v.picklist(STATE_KINDS)],
			'That is not one of the states in the list: choose one there.'
		),
		''
	)
});
