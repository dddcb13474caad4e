import { error, type RequestEvent } from '@sveltejs/kit';
import type { AppContext } from '$lib/server/app';
import { clientIp } from '$lib/server/http/meta';
import { hit } from '$lib/server/ratelimit/ratelimit';
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

/**
 * Looks a token up for the link page and its Start action, counting the attempt against the
 * caller's address first, so tokens cannot be guessed at speed. Ends in an error page otherwise.
 */
export async function openLink(
	ctx: AppContext,
	event: RequestEvent,
	token: string
): Promise<SigningLink> {
	const limit = await hit(ctx.db, {
		key: `open:ip:${clientIp(event) ?? 'unknown'}`,
		max: ctx.config.RATE_LIMIT_LINK_OPEN,
		windowSeconds: 600
	});
	if (!limit.ok) {
		event.setHeaders({ 'retry-after': String(limit.retryAfterSeconds) });
		error(429, {
			message: 'Too many links were opened from your network. Wait a few minutes and try again.'
		});
	}
	const link = await findLink(ctx.db, token);
	const state = linkState(link);
	if (state !== 'valid') {
		const [status, message] = MESSAGES[state];
		// A link we know names its application, and so the rep the message points to.
		const rep = link ? await repContactOf(ctx, link.officeId, link.applicationId) : null;
		error(status, { message, rep });
	}
	return link!;
}
