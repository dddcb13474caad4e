import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A 256-bit random token, base64url without padding (43 characters): fit for a URL or cookie. */
export function newToken(): string {
	return randomBytes(32).toString('base64url');
}

/** Whether a string could be one of ours: anything else need not be hashed and looked up. */
export function isTokenShaped(s: string): boolean {
	return /^[A-Za-z0-9_-]{43}$/.test(s);
}

/** What the database keeps instead of a token: a leaked table then opens nothing. */
export function hashToken(token: string): string {
	return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Compares secrets without leaking, through timing, how much of a guess was right. Both sides are
 * hashed first so that inputs of different lengths take the same time too.
 */
export function constantTimeEqual(a: string, b: string): boolean {
	const da = createHash('sha256').update(a, 'utf8').digest();
	const db = createHash('sha256').update(b, 'utf8').digest();
	return timingSafeEqual(da, db);
}
