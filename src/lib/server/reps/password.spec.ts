import { describe, expect, it } from 'vitest';
import { DUMMY_HASH, hashPassword, isCurrentCost, verifyPassword } from './password';

describe('rep passwords (scrypt)', () => {
	it('stores OWASP’s cost, a random salt and no trace of the password', async () => {
		const password = 'correct horse battery staple';
		const [a, b] = await Promise.all([hashPassword(password), hashPassword(password)]);
		expect(a).toMatch(/^scrypt\$15\$8\$3\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
		expect(a).not.toBe(b);
		expect(a).not.toContain(password);
		expect(isCurrentCost(a)).toBe(true);
	});

	it('accepts the right password only', async () => {
		const stored = await hashPassword('correct horse battery staple');
		expect(await verifyPassword(stored, 'correct horse battery staple')).toBe(true);
		expect(await verifyPassword(stored, 'correct horse battery stapl')).toBe(false);
		expect(await verifyPassword(stored, 'Correct horse battery staple')).toBe(false);
		expect(await verifyPassword(stored, '')).toBe(false);
	});

	it('treats the same text typed with composed or decomposed accents as one password', async () => {
		const stored = await hashPassword('Beltrán-and-more-words');
		expect(await verifyPassword(stored, 'Beltra\u0301n-and-more-words')).toBe(true);
	});

	it('refuses malformed or tampered hashes instead of throwing or hashing at any cost', async () => {
		const stored = await hashPassword('correct horse battery staple');
		const parts = stored.split('$');
		const tampered = [
			'',
			'plain text',
			stored.replace('scrypt', 'bcrypt'),
			[...parts.slice(0, 1), '30', ...parts.slice(2)].join('$'),
			[...parts.slice(0, 2), '0', ...parts.slice(3)].join('$'),
			[...parts.slice(0, 4), 'c2FsdA==', parts[5]].join('$'),
			parts.slice(0, 5).join('$')
		];
		for (const t of tampered) {
			expect(await verifyPassword(t, 'correct horse battery staple'), t).toBe(false);
		}
		expect(isCurrentCost('scrypt$14$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAA==')).toBe(
			false
		);
		// The cheat sheet's 128 MiB setting, which earlier hashes used: readable, made again.
		expect(isCurrentCost('scrypt$17$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAA==')).toBe(
			false
		);
	});

	it('has a dummy hash at today’s cost that no guess matches (unknown emails cost the same)', async () => {
		expect(isCurrentCost(DUMMY_HASH)).toBe(true);
		expect(await verifyPassword(DUMMY_HASH, 'correct horse battery staple')).toBe(false);
		expect(await verifyPassword(DUMMY_HASH, '')).toBe(false);
	});
});
