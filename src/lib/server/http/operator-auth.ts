import { constantTimeEqual } from '$lib/server/crypto/tokens';

/** Whether a request's `Authorization: Bearer …` carries the operator key (compared in constant time). */
export function isOperator(authorization: string | null, key: string | undefined): boolean {
	if (!key || !authorization) return false;
	const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
	return match !== null && constantTimeEqual(match[1]!, key);
}
