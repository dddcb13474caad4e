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
 * The rep as the merchant's pages name them on every view: kept with the instance's upstream
 * reference data (ONBOARDING_CACHE_SECONDS), so a page view does not read the rep's account each
 * time. A rep's contact changes rarely; a disabled rep may still be named until the copy ages.
 * The rep's own pages and the operator API read the account itself (`repContact`).
 */
export async function merchantRepContact(
	ctx: AppContext,
	officeId: number,
	repNo: number | null | undefined
): Promise<RepContact | null> {
	if (repNo == null) return null;
	const { value } = await ctx.upstreamCache.get(`rep:${officeId}:${repNo}`, async () => ({
		contact: await repContact(ctx.db, officeId, repNo)
	}));
	return value.contact;
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
		return item ? await merchantRepContact(ctx, officeId, Number(item.RepNo)) : null;
	} catch {
		return null;
	}
}
