import type { RequestEvent } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { clientText } from './inputs';

export interface RequestMeta {
	ip: string | null;
	userAgent: string | null;
}

/** How often a missing forwarded address is logged, at most: once per this many ms. */
const WARN_EVERY_MS = 10 * 60_000;
let warnedAt = -Infinity;

/**
 * The connection's address as adapter-node gives it: forwarded headers are trusted only when the
 * operator sets ADDRESS_HEADER (and XFF_DEPTH), never on the client's word. Null when that header
 * is missing from the request, or holds fewer addresses than XFF_DEPTH (adapter-node throws
 * then): a request that did not come through the proxy, or a proxy that does not set it. That is
 * the operator's to fix, so it is logged, in our words; a merchant's decision, which the service
 * takes only with an address, is refused before it is recorded (sign/+page.server.ts).
 */
export function clientIp(event: RequestEvent): string | null {
	try {
		return event.getClientAddress();
	} catch {
		const now = Date.now();
		if (now - warnedAt >= WARN_EVERY_MS) {
			warnedAt = now;
			const header = app().config.ADDRESS_HEADER ?? 'address';
			console.error(
				`[http] a request came without a usable ${header} header (absent, or fewer addresses than XFF_DEPTH): the client's address is unknown, so merchants' decisions are refused until every request comes through the proxy that sets it (logged at most every 10 minutes)`
			);
		}
		return null;
	}
}

export function requestMeta(event: RequestEvent): RequestMeta {
	return {
		ip: clientIp(event),
		// Written by the client, kept in the trail and printed on the certificate: as clientText says.
		userAgent: userAgentOf(event.request.headers.get('user-agent'))
	};
}

export const userAgentOf = (header: string | null) =>
	header === null ? null : clientText(header, 512);
