import { randomBytes } from 'node:crypto';
import type { Cookies } from '@sveltejs/kit';
import { describe, expect, it } from 'vitest';
import { encrypt } from '$lib/server/crypto/secretbox';
import { keepCopied, takeCopied } from './copied';

/** The part of kit's cookies the module uses, keeping what was set with its options. */
function jar() {
	const values = new Map<string, string>();
	const options = new Map<string, Record<string, unknown>>();
	const cookies = {
		get: (name: string) => values.get(name),
		set: (name: string, value: string, opts: Record<string, unknown>) => {
			values.set(name, value);
			options.set(name, opts);
		},
		delete: (name: string, opts: Record<string, unknown>) => {
			values.delete(name);
			options.set(name, { ...opts, deleted: true });
		}
	} as unknown as Cookies;
	return { cookies, values, options };
}

const key = randomBytes(32);
const url = new URL('https://sign.example.com/rep/applications/50001?/copy');
const owner = { officeId: 1207, applicationId: 50001, repId: 'rep-1' };
const link = {
	url: 'https://sign.example.com/s/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde',
	expiresAt: new Date('2026-12-01T07:35:00Z')
};
const at = new Date('2026-11-24T10:00:00Z');
const later = (seconds: number) => new Date(at.getTime() + seconds * 1000);

describe('the link made to copy, carried over the redirect', () => {
	it('is read back once, on the application’s page only, and encrypted on the way', () => {
		const { cookies, values, options } = jar();
		keepCopied(cookies, url, key, owner, link, at);
		const box = values.get('copied-link')!;
		expect(box).not.toContain('AbCdEf');
		expect(box).not.toContain('sign.example.com');
		expect(options.get('copied-link')).toMatchObject({
			path: '/rep/applications/50001',
			httpOnly: true,
			sameSite: 'strict',
			secure: true,
			maxAge: 120
		});
		expect(takeCopied(cookies, url, key, owner, later(5))).toEqual(link);
		expect(options.get('copied-link')).toMatchObject({
			path: '/rep/applications/50001',
			deleted: true
		});
		expect(takeCopied(cookies, url, key, owner, later(6))).toBeNull();
	});

	it('is not shown to another rep, for another application or office, or after two minutes', () => {
		const cases = [
			[{ ...owner, repId: 'rep-2' }, later(1)],
			[{ ...owner, applicationId: 50002 }, later(1)],
			[{ ...owner, officeId: 1208 }, later(1)],
			[owner, later(121)]
		] as const;
		for (const [reader, when] of cases) {
			const { cookies, values } = jar();
			keepCopied(cookies, url, key, owner, link, at);
			expect(takeCopied(cookies, url, key, reader, when)).toBeNull();
			// Dropped all the same: it is of no use to anyone after this view.
			expect(values.has('copied-link')).toBe(false);
		}
	});

	it('opens only what this portal sealed for it: not a changed box, nor one under the main key', () => {
		const { cookies, values } = jar();
		keepCopied(cookies, url, key, owner, link, at);
		const [version, iv, tag, sealed] = values.get('copied-link')!.split('.');
		const changed = (sealed!.startsWith('A') ? 'B' : 'A') + sealed!.slice(1);
		values.set('copied-link', [version, iv, tag, changed].join('.'));
		expect(takeCopied(cookies, url, key, owner, later(1))).toBeNull();

		const plain = JSON.stringify({
			...owner,
			url: link.url,
			expiresAt: link.expiresAt.getTime(),
			until: later(60).getTime()
		});
		values.set('copied-link', encrypt(key, plain));
		expect(takeCopied(cookies, url, key, owner, later(1))).toBeNull();
		values.set('copied-link', 'not a box');
		expect(takeCopied(cookies, url, key, owner, later(1))).toBeNull();
		expect(takeCopied(jar().cookies, url, key, owner, later(1))).toBeNull();
	});
});
