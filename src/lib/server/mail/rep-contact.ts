import type { AppContext } from '$lib/server/app';
import { officeContact, repContact, repContactOf, type RepContact } from '$lib/server/reps/contact';
import type { Block } from './render';

export type { RepContact };

/**
 * Who an application's rep is, for the notes the rep is sent. The worker asks this when it sends
 * a note (not when the note is written), so a slow upstream call never holds a transaction open,
 * and an unreachable service only delays the note.
 */
export type RepDirectory = (
	officeId: number,
	applicationId: number,
	/** The rep the merchant's pages named, if the note knows (see NoteInput). */
	repNo?: number | null
) => Promise<RepContact | undefined>;

/**
 * The directory the portal uses: the rep the merchant's pages named, while their account is
 * active; else the upstream list item's `RepNo` in the application's office → the active rep
 * account with that number (src/lib/server/reps/contact.ts); else the office contact, when one is
 * set (OFFICE_CONTACT_*), whom the merchant's pages then named and said would be told; undefined
 * when there is none.
 */
export function repDirectory(ctx: AppContext): RepDirectory {
	return async (officeId, applicationId, repNo) =>
		(await repContact(ctx.db, officeId, repNo)) ??
		(await repContactOf(ctx, { officeId, applicationId })) ??
		officeContact(ctx.config) ??
		undefined;
}

/**
 * Whom a merchant's email names, with Reply-To set to them: the rep (or the office contact), else
 * `otherwise`, a sentence that says to ask the sales representative.
 */
export function contactBlock(rep: RepContact | null | undefined, otherwise: string): Block {
	if (!rep) return { kind: 'p', text: otherwise };
	return {
		kind: 'contact',
		heading: rep.office ? 'Your sales office' : 'Your sales representative',
		lines: [
			rep.name,
			{ text: rep.email, link: 'mailto' },
			...(rep.phone ? [{ text: rep.phone, link: 'tel' as const }] : []),
			'Reply to this email to reach them.'
		]
	};
}
