import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decrypt, encrypt, loadOrCreateKey } from './secretbox';

describe('secretbox', () => {
	const key = randomBytes(32);

	it('round-trips text, with a fresh IV each time', () => {
		const a = encrypt(key, '123-45-6789 ünïcode');
		const b = encrypt(key, '123-45-6789 ünïcode');
		expect(a).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
		expect(a).not.toBe(b);
		expect(a).not.toContain('6789');
		expect(decrypt(key, a)).toBe('123-45-6789 ünïcode');
		expect(decrypt(key, encrypt(key, ''))).toBe('');
	});

	it('throws on a changed ciphertext, tag or IV, a wrong key, or a malformed box', () => {
		const box = encrypt(key, 'secret');
		const [v, iv, tag, ct] = box.split('.') as [string, string, string, string];
		const flip = (s: string) => {
			const bytes = Buffer.from(s, 'base64url');
			bytes[0] = (bytes[0] as number) ^ 1;
			return bytes.toString('base64url');
		};
		expect(() => decrypt(key, [v, iv, tag, flip(ct)].join('.'))).toThrow();
		expect(() => decrypt(key, [v, iv, flip(tag), ct].join('.'))).toThrow();
		expect(() => decrypt(key, [v, flip(iv), tag, ct].join('.'))).toThrow();
		expect(() => decrypt(randomBytes(32), box)).toThrow();
		expect(() => decrypt(key, `v2.${iv}.${tag}.${ct}`)).toThrow(/not a v1 box/);
		expect(() => decrypt(key, `v1.${iv}.${tag}`)).toThrow(/not a v1 box/);
		expect(() => decrypt(key, `v1.${iv}.${tag.slice(0, 10)}.${ct}`)).toThrow(/malformed/);
	});

	it('refuses keys that are not 32 bytes', () => {
		expect(() => encrypt(randomBytes(16), 'x')).toThrow(/32 bytes/);
	});
});

describe('loadOrCreateKey', () => {
	let dir: string | undefined;
	afterEach(() => {
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it('creates a 0600 key file once and reads the same key afterwards', () => {
		dir = mkdtempSync(join(tmpdir(), 'portal-key-'));
		const dataDir = join(dir, 'data');
		const key = loadOrCreateKey(dataDir, 'secret.key');
		expect(key).toHaveLength(32);
		const path = join(dataDir, 'secret.key');
		expect(statSync(path).mode & 0o777).toBe(0o600);
		expect(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64').equals(key)).toBe(true);
		expect(loadOrCreateKey(dataDir, 'secret.key').equals(key)).toBe(true);
		expect(readdirSync(dataDir)).toEqual(['secret.key']);
	});

	it('refuses a file that does not hold a 32-byte key', () => {
		dir = mkdtempSync(join(tmpdir(), 'portal-key-'));
		writeFileSync(join(dir, 'bad.key'), 'c2hvcnQ=');
		expect(() => loadOrCreateKey(dir as string, 'bad.key')).toThrow(/32-byte key/);
	});
});
