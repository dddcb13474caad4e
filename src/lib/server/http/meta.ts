import type { RequestEvent } from '@sveltejs/kit';

export interface RequestMeta {
	ip: string | null;
	userAgent: string | null;
}

/**
 * The connection's address as adapter-node gives it: forwarded headers are trusted only when the
 * operator sets ADDRESS_HEADER (and XFF_DEPTH), never on the client's word.
 */
export function clientIp(event: RequestEvent): string | null {
	try {
		return event.getClientAddress();
	} catch {
		return null;
	}
}

export function requestMeta(event: RequestEvent): RequestMeta {
	return {
		ip: clientIp(event),
		userAgent: event.request.headers.get('user-agent')?.slice(0, 512) ?? null
	};
}
