import { error, type RequestEvent } from '@sveltejs/kit';
import type { AppContext } from '$lib/server/app';
import { clientIp } from '$lib/server/http/meta';
import { hit, type Limit } from '$lib/server/ratelimit/ratelimit';
import { repContactOf } from '$lib/server/reps/contact';
import { findLink, linkState, type SigningLink } from './links';

const MESSAGES = {
	unknown: [
		404,
		'This link isn’t valid. Check that you opened the whole link from your email, or ask your sales representative for a new one.'
	],
	expired: [410, 'This link has expired. Ask your sales representative to send you a new one.'],
	revoked: [
		410,
		'This link has been replaced by a newer one. Use the most recent email you received, or ask your sales representative for a new link.'
	],
	used: [
		410,
		'This link has already been used to record a decision, so it can’t be used again. Your sales representative can tell you where things stand.'
	]
} as const;

const WINDOW_SECONDS = 600;

async function count(ctx: AppContext, event: RequestEvent, limit: Limit, message: string) {
	const r = await hit(ctx.db, limit);
	if (r.ok) return;
	event.setHeaders({ 'retry-after': String(r.retryAfterSeconds) });
	error(429, { message });
}

/**
 * Looks a token up for the link page and its Start action; ends in an error page unless the link
 * can be used. Two limits, each on what it protects, so that a neighbour behind the same address
 * (a shop's NAT, a mobile carrier's) cannot lock merchants out:
 * - tokens that match no link are counted per address, which keeps guessing slow (a 256-bit
 *   token cannot be guessed anyway; a real token is honoured from any address);
 * - opens of a real link are counted per link, which bounds what one leaked link can start.
 */
export async function openLink(
	ctx: AppContext,
	event: RequestEvent,
	token: string
): Promise<SigningLink> {
	return admitLink(ctx, event, await findLink(ctx.db, token));
}

/** openLink on a link the caller looked up itself (the link page's view, with more in it). */
export async function admitLink(
	ctx: AppContext,
	event: RequestEvent,
	link: SigningLink | undefined
): Promise<SigningLink> {
	if (!link) {
		await count(
			ctx,
			event,
			{
				key: `open:miss:${clientIp(event) ?? 'unknown'}`,
				max: ctx.config.RATE_LIMIT_LINK_MISS,
				windowSeconds: WINDOW_SECONDS
			},
			'Too many links that don’t exist were tried from your network. Wait a few minutes, then open the link from your email again.'
		);
	} else {
		await count(
			ctx,
			event,
			{
				key: `open:link:${link.id}`,
				max: ctx.config.RATE_LIMIT_LINK_OPEN,
				windowSeconds: WINDOW_SECONDS
			},
			'This link has been opened many times in the last few minutes. Wait a few minutes and try again.'
		);
	}
	const state = linkState(link);
	if (state !== 'valid') {
		const [status, message] = MESSAGES[state];
		// A link we know names its sender or its application, and so the rep the message points to.
		const rep = link ? await repContactOf(ctx, link) : null;
		error(status, { message, rep });
	}
	return link!;
}
