import type { RepContact } from '$lib/server/reps/contact';

/**
 * Who hears of the merchant's decision, as the merchant's pages say it: the rep they name, or the
 * office when the pages name its contact (OFFICE_CONTACT_*, where the rep has no account); null
 * when nobody is told (no rep account and no office contact: the decision waits in the console).
 * The notes go to the same contact (src/lib/server/mail/rep-contact.ts).
 */
export function toldOf(rep: RepContact | null | undefined): string | null {
	return rep ? (rep.office ? 'your sales office' : 'your sales representative') : null;
}
