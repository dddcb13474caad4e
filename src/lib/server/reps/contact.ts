import type { AppContext } from '$lib/server/app';
import type { Tx } from '$lib/server/db';
import { findApplication } from '$lib/server/signing/application';
import { activeRep } from './accounts';

/** How the merchant's pages name their rep: "Your sales representative: Sam Ortiz, …". */
export interface RepContact {
	name: string;
	email: string;
	phone: string | null;
}

/** The active account behind an application's `RepNo`, or null (pages then say it generically). */
export async function repContact(
	db: Tx,
	officeId: number,
	repNo: number | null | undefined
): Promise<RepContact | null> {
	if (repNo == null) return null;
	const rep = await activeRep(db, officeId, repNo);
	return rep ? { name: rep.name, email: rep.email, phone: rep.phone } : null;
}

/**
 * The rep of an application known only by its ids (a link's error page): the service's list
 * gives the `RepNo`. Never fails: a page that cannot name the rep still names the way forward.
 */
export async function repContactOf(
	ctx: AppContext,
	officeId: number,
	applicationId: number
): Promise<RepContact | null> {
	try {
		const item = await findApplication(ctx, officeId, applicationId);
		return item ? await repContact(ctx.db, officeId, Number(item.RepNo)) : null;
	} catch {
		return null;
	}
}
