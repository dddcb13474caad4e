import { timingSafeEqual, createHash } from 'node:crypto';

/** Compares a bearer token with the operator key in constant time (hashing first evens lengths). */
export function isOperator(authorization: string | null, key: string | undefined): boolean {
	if (!key || !authorization) return false;
	const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
	if (!match) return false;
	const a = createHash('sha256').update(match[1]!).digest();
	const b = createHash('sha256').update(key).digest();
	return timingSafeEqual(a, b);
}
