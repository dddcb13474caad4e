import type { RequestEvent } from '@sveltejs/kit';
import { durationWords } from '$lib/server/audit/labels';
import type { AppContext } from '$lib/server/app';
import { constantTimeEqual } from '$lib/server/crypto/tokens';
import { hit, peek } from '$lib/server/ratelimit/ratelimit';
import { clientIp } from './meta';
import { limitAddress } from './address';

/**
 * The operator API's paths: authenticated by bearer key only, never by cookie. A new operator
 * endpoint is added here, which also exempts it from the form-origin check (csrf.ts).
 */
const OPERATOR_API_PATHS = [/^\/api\/v1\/offices\/[^/]+\/applications\/[^/]+\/signing-links\/?$/];

export const isOperatorApiPath = (path: string) => OPERATOR_API_PATHS.some((p) => p.test(path));

/** Whether a request's `Authorization: Bearer …` carries the operator key (compared in constant time). */
export function isOperator(authorization: string | null, key: string | undefined): boolean {
	if (!key || !authorization) return false;
	const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
	return match !== null && constantTimeEqual(match[1]!, key);
}

const refusal = (status: number, message: string, headers: Record<string, string>) =>
	Response.json({ message }, { status, headers });

/**
 * Null when the request carries the operator key, else the answer: 401, or 429 with Retry-After
 * once an address has sent RATE_LIMIT_OPERATOR_AUTH wrong keys in ten minutes (counted in the
 * database, so every instance shares the count). While an address is held back even the right
 * key is refused: otherwise its answers would still tell a guess that was right. Each request
 * makes one statement, in the order they came: a wrong key's count (atomic), or the right key's
 * look at it. Read first and counted after, keys sent all at once were each judged before any of
 * them was counted, however many there were; counted up front and taken back, the right key
 * would be refused in a burst of the operator's own calls.
 */
export async function authorizeOperator(
	ctx: AppContext,
	event: RequestEvent
): Promise<Response | null> {
	const limit = {
		key: `operator-auth:ip:${limitAddress(clientIp(event))}`,
		max: ctx.config.RATE_LIMIT_OPERATOR_AUTH,
		windowSeconds: 600
	};
	const tooMany = (seconds: number) =>
		refusal(
			429,
			`Too many requests with a wrong operator API key came from this address. Try again in ${durationWords(
				seconds >= 60 ? Math.ceil(seconds / 60) * 60 : seconds
			)}.`,
			{ 'retry-after': String(seconds) }
		);
	if (isOperator(event.request.headers.get('authorization'), ctx.operatorApiKey)) {
		const standing = await peek(ctx.db, limit);
		return standing.ok ? null : tooMany(standing.retryAfterSeconds);
	}
	const counted = await hit(ctx.db, limit);
	if (!counted.ok) return tooMany(counted.retryAfterSeconds);
	return refusal(401, 'A valid operator API key is required.', { 'www-authenticate': 'Bearer' });
}
