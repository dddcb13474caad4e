import type { AppContext } from '$lib/server/app';
import { closeTriesOfEndedLinks } from '$lib/server/identity/attempts';
import {
	createLink,
	revokeLinks,
	type AnyGuard,
	type CreateLinkInput,
	type CreatedLink,
	type LinkGuard
} from './links';

/**
 * Every way the portal ends a link goes through here: a new link (from a rep or the operator API),
 * a rep's "Revoke", a hand-over for signing in person. links.ts ends the links, and with them
 * their sessions, in one transaction; this then closes the identity questions those sessions had
 * open (closeTriesOfEndedLinks), which needs the app (the application's lock, the rep's note).
 * A test that only needs a link calls createLink itself.
 */
export async function issueLink(
	ctx: AppContext,
	input: CreateLinkInput,
	now?: Date
): Promise<CreatedLink>;
export async function issueLink(
	ctx: AppContext,
	input: CreateLinkInput & LinkGuard,
	now?: Date
): Promise<CreatedLink | null>;
export async function issueLink(
	ctx: AppContext,
	input: CreateLinkInput & AnyGuard,
	now = new Date()
): Promise<CreatedLink | null> {
	// Passed on as it came, guard or none: the cast picks createLink's overload that may give null.
	const made = await createLink(ctx.db, input as CreateLinkInput & LinkGuard, now);
	if (made) {
		await closeTriesOfEndedLinks(
			ctx,
			{
				linkIds: made.replaced,
				reason: 'link replaced',
				rep: input.rep ?? null,
				by: input.createdBy,
				meta: input.meta
			},
			now
		);
	}
	return made;
}

/** A rep's "Revoke", or a hand-over's end of the link (see issueLink); the ids of the links ended. */
export async function endLinks(
	ctx: AppContext,
	input: Parameters<typeof revokeLinks>[1] & { by: string },
	now = new Date()
): Promise<string[]> {
	const ended = await revokeLinks(ctx.db, input, now);
	await closeTriesOfEndedLinks(
		ctx,
		{
			linkIds: ended,
			reason: input.reason === 'in_person' ? 'signing in person' : 'link revoked',
			rep: input.rep,
			by: input.by,
			meta: input.meta
		},
		now
	);
	return ended;
}
