import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual, hashToken, newToken } from './tokens';

describe('tokens', () => {
	it('makes 43-character base64url tokens of 256 bits, never the same twice', () => {
		const tokens = Array.from({ length: 100 }, newToken);
		for (const token of tokens) {
			expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
			expect(Buffer.from(token, 'base64url')).toHaveLength(32);
		}
		expect(new Set(tokens).size).toBe(100);
	});

	it('hashes a token to hex SHA-256', () => {
		const token = newToken();
		expect(hashToken(token)).toBe(createHash('sha256').update(token).digest('hex'));
		expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
	});

	it('compares in constant time, whatever the lengths', () => {
		const token = newToken();
		expect(constantTimeEqual(token, `${token}`)).toBe(true);
		expect(constantTimeEqual(token, token.slice(0, -1))).toBe(false);
		expect(constantTimeEqual(token, newToken())).toBe(false);
		expect(constantTimeEqual('', '')).toBe(true);
		expect(constantTimeEqual('a', '')).toBe(false);
	});
});
