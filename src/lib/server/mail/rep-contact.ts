import { and, desc, eq } from 'drizzle-orm';
import type { AppContext } from '$lib/server/app';
import { signingLinks } from '$lib/server/db/schema';

export interface RepContact {
	name: string;
	email: string;
	phone: string | null;
}

/**
 * Who an application's rep is, for the notes the rep is sent. The worker asks this when it sends
 * a note (not when the note is written), so a slow upstream call never holds a transaction open,
 * and an unreachable service only delays the note.
 */
export type RepDirectory = (
	officeId: number,
	applicationId: number
) => Promise<RepContact | undefined>;

/**
 * The directory the portal uses.
 *
 * FALLBACK until rep accounts exist (issue 6, `src/lib/server/reps/`): the rep is taken to be
 * whoever created the application's latest link, when that was a person with an email address
 * (links made by the operator API have none, and their notes end "no rep on record"). When rep
 * accounts land, this becomes: the upstream list item's `RepNo`
 * (`findApplication(ctx, officeId, applicationId)`) → the rep account with that number in that
 * office → `{ name, email, phone }`, undefined when there is no such (enabled) account.
 */
export function repDirectory(ctx: AppContext): RepDirectory {
	return async (officeId, applicationId) => {
		const [latest] = await ctx.db
			.select({ createdBy: signingLinks.createdBy })
			.from(signingLinks)
			.where(
				and(eq(signingLinks.officeId, officeId), eq(signingLinks.applicationId, applicationId))
			)
			.orderBy(desc(signingLinks.createdAt))
			.limit(1);
		const by = latest?.createdBy ?? '';
		return /^[^@\s]+@[^@\s]+$/.test(by) ? { name: by, email: by, phone: null } : undefined;
	};
}
