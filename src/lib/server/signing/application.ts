import type { AppContext } from '$lib/server/app';
import type { ApplicationListItem } from '$lib/server/onboarding';

/**
 * The service has no "get one application" operation: the office's list is the only place an
 * application's names and emails can be read.
 */
export async function findApplication(
	ctx: AppContext,
	officeId: number,
	applicationId: number
): Promise<ApplicationListItem | undefined> {
	const list = await ctx.onboarding.listApplications(officeId);
	return list.find((item) => Number(item.ApplicationID) === applicationId);
}

export function businessName(item: ApplicationListItem): string {
	return item.DBA_Name || item.Legal_Name || `Application ${item.ApplicationID}`;
}
