import { describe, expect, it } from 'vitest';
import { adapterProblems, defaultHost } from './adapter.js';
import { ConfigError, parseConfig } from './config';

describe("adapter-node's settings", () => {
	it('are all fine unset, and at their ordinary values', () => {
		expect(adapterProblems({})).toEqual([]);
		expect(
			adapterProblems({
				PORT: '3000',
				ORIGIN: 'https://portal.example.com/',
				BODY_SIZE_LIMIT: '8M',
				KEEP_ALIVE_TIMEOUT: '65',
				SHUTDOWN_TIMEOUT: '',
				ADDRESS_HEADER: 'X-Forwarded-For',
				XFF_DEPTH: '2'
			})
		).toEqual([]);
		expect(adapterProblems({ BODY_SIZE_LIMIT: 'Infinity' })).toEqual([]);
	});

	it('name each bad one once, in our words, where adapter-node threw or failed every request', () => {
		expect(
			adapterProblems({
				PORT: 'abc',
				ORIGIN: 'foo',
				BODY_SIZE_LIMIT: 'lots',
				KEEP_ALIVE_TIMEOUT: 'x',
				XFF_DEPTH: '0',
				ADDRESS_HEADER: 'X Forwarded'
			})
		).toEqual([
			'PORT: must be a whole number from 1 to 65535',
			'ORIGIN: must be an http:// or https:// address with no path, such as https://sign.example.com',
			'BODY_SIZE_LIMIT: must be a number of bytes, with K, M or G after it if you like (such as 512K or 8M), or Infinity',
			'KEEP_ALIVE_TIMEOUT: must be a whole number of seconds from 0 to 86400',
			'ADDRESS_HEADER: must be an HTTP header name',
			'XFF_DEPTH: must be a whole number from 1 to 20'
		]);
		expect(adapterProblems({ PORT: '99999' })).toEqual([
			'PORT: must be a whole number from 1 to 65535'
		]);
		// The portal serves at the root: a path would be printed, then left out of every link.
		for (const ORIGIN of ['https://sign.example.com/portal', 'https://sign.example.com/?a=1']) {
			expect(adapterProblems({ ORIGIN }), ORIGIN).toEqual([
				'ORIGIN: must be an http:// or https:// address with no path, such as https://sign.example.com'
			]);
		}
		expect(adapterProblems({ ORIGIN: 'http://10.0.0.5:3000' })).toEqual([]);
	});

	it('are checked with the portal’s own, for a start without scripts/start.js', () => {
		try {
			parseConfig({ XFF_DEPTH: 'abc', ONBOARDING_TIMEOUT_MS: '5' });
			expect.unreachable();
		} catch (err) {
			expect((err as ConfigError).problems).toEqual([
				'ONBOARDING_TIMEOUT_MS: must be a whole number from 100 to 120000',
				'XFF_DEPTH: must be a whole number from 1 to 20'
			]);
		}
	});

	it('keep the sandbox on this machine unless HOST says otherwise, whatever the database', () => {
		expect(defaultHost({})).toBe('127.0.0.1');
		expect(defaultHost({ DATABASE_URL: 'postgres://db/portal' })).toBe('127.0.0.1');
		expect(defaultHost({ HOST: '0.0.0.0' })).toBeUndefined();
		expect(defaultHost({ ONBOARDING_BASE_URL: 'https://onboarding.example.com' })).toBeUndefined();
	});
});
