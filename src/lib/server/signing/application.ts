import type { AppContext } from '$lib/server/app';
import { ApplicationListItemSchema, type ApplicationListItem } from '$lib/server/onboarding';

/** The fields the contract gives a list entry: nothing else the service sends is kept. */
const FIELDS = Object.keys(ApplicationListItemSchema.entries) as (keyof ApplicationListItem)[];

type Entries = Record<string, ApplicationListItem>;

async function officeEntries(ctx: AppContext, officeId: number): Promise<Entries> {
	const list = await ctx.onboarding.listApplications(officeId);
	return Object.fromEntries(
		list.map((item) => [
			String(item.ApplicationID),
			Object.fromEntries(FIELDS.map((f) => [f, item[f]])) as ApplicationListItem
		])
	);
}

/** The office's entries: the instance's shared copy, or (`fresh`) the service's list anew. */
const officeCopy = (ctx: AppContext, officeId: number, fresh = false) =>
	ctx.upstreamCache.get(`applications:${officeId}`, () => officeEntries(ctx, officeId), { fresh });

/**
 * The shared copy while it is younger than `maxAgeSeconds` (and than the cache's own limit), else
 * the service's list anew; `asked` says which.
 */
async function copyWithin(
	ctx: AppContext,
	officeId: number,
	maxAgeSeconds: number,
	now: number,
	since?: Date
) {
	const copy = await officeCopy(ctx, officeId);
	const young = now - copy.fetchedAt.getTime() <= maxAgeSeconds * 1000;
	if (young && !(since && copy.fetchedAt < since)) return { copy, asked: false };
	return { copy: await officeCopy(ctx, officeId, true), asked: true };
}

/**
 * The service has no "get one application" operation: the office's list is the only place an
 * application's names and emails can be read. One call serves the office's entries for a short
 * time (the upstream cache); `fresh` asks the service again, for decisions that must not rest on
 * a copy (whether the application exists and is still open), and `maxAgeSeconds` for a copy no
 * older than that (what a page shows), and `since` for one read after that time (after a
 * decision reached the service, say). An application missing from the copy may be newer than
 * it, so the service is asked again before it is called missing.
 */
export async function findApplication(
	ctx: AppContext,
	officeId: number,
	applicationId: number,
	options: { fresh?: boolean; maxAgeSeconds?: number; since?: Date } = {},
	now = Date.now()
): Promise<ApplicationListItem | undefined> {
	const { copy, asked } = options.fresh
		? { copy: await officeCopy(ctx, officeId, true), asked: true }
		: await copyWithin(ctx, officeId, options.maxAgeSeconds ?? Infinity, now, options.since);
	const found = copy.value[String(applicationId)];
	if (found || asked) return found;
	return (await officeCopy(ctx, officeId, true)).value[String(applicationId)];
}

/**
 * The service's `Status` of `listed` for a rep's page: read again when the copy may be from before
 * the portal's decision reached the service (`deliveredAt`), which would otherwise say "Pending
 * Signature" beside the portal's "Signed" until the copy's refresh; once read after, the copy is
 * kept. With the service not answering, the copy's is what there is to show.
 */
export async function serviceStatus(
	ctx: AppContext,
	officeId: number,
	listed: ApplicationListItem,
	deliveredAt: Date | null | undefined,
	maxAgeSeconds: number,
	now = Date.now()
): Promise<string> {
	if (!deliveredAt) return listed.Status;
	const options = { maxAgeSeconds, since: deliveredAt };
	const reread = await findApplication(
		ctx,
		officeId,
		Number(listed.ApplicationID),
		options,
		now
	).catch(() => undefined);
	return (reread ?? listed).Status;
}

/**
 * The office's applications as the console lists them: a copy no older than `maxAgeSeconds` (see
 * copyWithin). A rep's reload then costs the service nothing, and what they see is never older
 * than that.
 */
export async function officeApplications(
	ctx: AppContext,
	officeId: number,
	maxAgeSeconds: number,
	now = Date.now()
): Promise<ApplicationListItem[]> {
	return Object.values((await copyWithin(ctx, officeId, maxAgeSeconds, now)).copy.value);
}

export function businessName(item: ApplicationListItem): string {
	return item.DBA_Name || item.Legal_Name || `Application ${item.ApplicationID}`;
}

/**
 * Whom a signing email greets by name: the application's first owner, when the email goes to the
 * address the application gives for them. Sent elsewhere (a bookkeeper, a partner), the email
 * names no one rather than the wrong person.
 */
export function greetingFor(
	item: Pick<
		ApplicationListItem,
		'Ownr1_Legal_Name_First' | 'Ownr1_Legal_Name_Last' | 'Ownr1_Email'
	>,
	to: string
): string | null {
	const email = item.Ownr1_Email.trim().toLowerCase();
	if (!email || email !== to.trim().toLowerCase()) return null;
	return ownerName(item) || null;
}

/** A person's name from its parts, each trimmed, the empty ones left out: "" when there are none. */
export function fullName(...parts: string[]): string {
	return parts
		.map((p) => p.trim())
		.filter(Boolean)
		.join(' ');
}

/** The application's first owner, as the console, the emails and the signing pages name them. */
export function ownerName(
	item: Pick<ApplicationListItem, 'Ownr1_Legal_Name_First' | 'Ownr1_Legal_Name_Last'>
): string {
	return fullName(item.Ownr1_Legal_Name_First, item.Ownr1_Legal_Name_Last);
}
