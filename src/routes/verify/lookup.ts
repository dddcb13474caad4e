import * as v from 'valibot';
import { isUuid } from '$lib/server/db/uuid';
import { looksLikeSsn } from '$lib/server/signing/ssn';

/** A reference that looked like an SSN, refused without being shown back (+page.server.ts). */
export const SSN_REFUSED =
	'That looked like a Social Security Number, which checking never needs, so it was not kept. (If it was the decision number from the confirmation page: checking takes the decision reference instead.) Type the 36 letters, digits and dashes printed after “Decision reference” (“Decision ref.” on the certificate), such as c7e618ff-565a-4f3b-b3f8-8f367a591a4b.';

/**
 * A decision reference as the documents print it ("Decision reference c7e618ff-…"): typed from
 * paper, so spaces around it and capitals are forgiven.
 */
export const ReferenceSchema = v.pipe(
	v.string(),
	v.trim(),
	v.toLowerCase(),
	v.nonEmpty('Type the reference printed on the document.'),
	// The confirmation page's "Decision number" (the service's) is the number a merchant has.
	v.check(
		(s) => !/^\d+$/.test(s),
		'That looks like the decision number from the confirmation page. Checking takes the decision reference instead: the 36 letters, digits and dashes printed after “Decision reference” (“Decision ref.” on the certificate), such as c7e618ff-565a-4f3b-b3f8-8f367a591a4b.'
	),
	v.check(
		isUuid,
		'A reference is the 36 letters, digits and dashes printed after “Decision reference” (“Decision ref.” on the certificate), such as c7e618ff-565a-4f3b-b3f8-8f367a591a4b.'
	)
);

/**
 * Where a reference typed into /verify's second box leads: its page, or /verify again without it
 * when it looks like an SSN (neither kept in the address or the history nor shown back), or the
 * words that refuse it. A reference's hex digits may run nine in a row: only what is no reference
 * is taken for an SSN.
 */
export function referenceLookup(asked: string): { to: string } | { refused: string } {
	const parsed = v.safeParse(ReferenceSchema, asked);
	if (parsed.success) return { to: `/verify/${parsed.output}` };
	if (looksLikeSsn(asked)) return { to: '/verify?refused=ssn' };
	return { refused: parsed.issues[0].message };
}
