import type { AppContext } from '$lib/server/app';
import { closeTriesOfEndedLinks } from '$lib/server/identity/attempts';
import { makeLink, revokeLinks, type AnyGuard, type CreateLinkInput, type MadeLink } from './links';

/**
 * Every way the portal ends a link goes through here: a new link (from a rep or the operator API),
 * a rep's "Revoke", a hand-over for signing in person. links.ts ends the links, and with them
 * their sessions, in one transaction; this then closes the identity questions those sessions had
 * open (closeTriesOfEndedLinks), which needs the app (the application's lock, the rep's note).
 * No link is made while a tablet is in the merchant's hands (TabletRule, links.ts), whoever asks.
 * A test that only needs a link calls createLink itself.
 */
export async function issueLink(
	ctx: AppContext,
	input: CreateLinkInput & AnyGuard,
	now = new Date()
): Promise<MadeLink> {
	const made = await makeLink(
		ctx.db,
		{ ...input, tabletIdleSeconds: ctx.config.IN_PERSON_IDLE_SECONDS },
		now
	);
	if (made.ok) {
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
