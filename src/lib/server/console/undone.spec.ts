import { randomBytes } from 'node:crypto';
import type { Cookies } from '@sveltejs/kit';
import { describe, expect, it } from 'vitest';
import { keepCopied } from './copied';
import { keepUndone, takeUndone } from './undone';

function jar() {
	const values = new Map<string, string>();
	const cookies = {
		get: (name: string) => values.get(name),
		set: (name: string, value: string) => void values.set(name, value),
		delete: (name: string) => void values.delete(name)
	} as unknown as Cookies;
	return { cookies, values };
}

const key = randomBytes(32);
const url = new URL('https://sign.example.com/rep/applications/50001?/send');
const sam = { officeId: 1207, applicationId: 50001, repId: 'rep-1' };
const at = new Date('2026-12-05T10:00:00Z');
const later = (minutes: number) => new Date(at.getTime() + minutes * 60_000);

describe('what a form held when the rep’s session had ended', () => {
	it('comes back once, to the same rep, within half an hour', () => {
		for (const form of [
			{ action: 'send' as const, email: 'typed.before@testshop.example' },
			{ action: 'handOver' as const, idType: 'Passport', idLast4: 'K7Q2' }
		]) {
			const { cookies, values } = jar();
			keepUndone(cookies, url, key, sam, form, at);
			expect(values.get('undone-form')).not.toContain(form.action === 'send' ? 'typed' : 'K7Q2');
			expect(takeUndone(cookies, url, key, sam, later(29))).toEqual(form);
			expect(takeUndone(cookies, url, key, sam, later(29))).toBeNull();
		}
	});

	it('is not given to another rep, nor after half an hour, nor from another kind’s cookie', () => {
		const form = { action: 'send' as const, email: 'typed.before@testshop.example' };
		for (const [reader, when] of [
			[{ ...sam, repId: 'rep-2' }, later(1)],
			[{ ...sam, officeId: 3300 }, later(1)],
			[sam, later(31)]
		] as const) {
			const { cookies } = jar();
			keepUndone(cookies, url, key, sam, form, at);
			expect(takeUndone(cookies, url, key, reader, when)).toBeNull();
		}
		// A link made to copy, sealed for its own cookie, opens as nothing here.
		const { cookies, values } = jar();
		keepCopied(cookies, url, key, sam, { url: 'https://x.example/s/t', expiresAt: later(60) }, at);
		values.set('undone-form', values.get('copied-link')!);
		expect(takeUndone(cookies, url, key, sam, later(1))).toBeNull();
	});
});
