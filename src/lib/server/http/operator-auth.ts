import { constantTimeEqual } from '$lib/server/crypto/tokens';

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
