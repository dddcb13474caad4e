import { describe, expect, it } from 'vitest';
import { plainPath } from './plain-path';

describe('a path that spells plain characters as %XX', () => {
	it('is written plainly, leaving what must stay escaped', () => {
		expect(plainPath('/%61pi/v1/offices/1207')).toBe('/api/v1/offices/1207');
		expect(plainPath('/s%2Fx/%7Euser/%2d%2E%5f%30')).toBe('/s%2Fx/~user/-._0');
		expect(plainPath('/SIGN/%54ERMS')).toBe('/SIGN/TERMS');
		expect(plainPath('/rep/%20name/%E2%82%AC%41')).toBe('/rep/%20name/%E2%82%ACA');
		// Never a path another host could be read from.
		expect(plainPath('//%65vil.example/x')).toBe('/evil.example/x');
	});

	it('is left alone when nothing in it is spelled so', () => {
		for (const p of [
			'/',
			'/sign/terms',
			'/s/abc-DEF_123',
			'/a%2Fb',
			'/%20',
			'/%E2%82%AC',
			'/%zz'
		]) {
			expect(plainPath(p), p).toBeNull();
		}
	});
});
