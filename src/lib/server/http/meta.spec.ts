import { describe, expect, it } from 'vitest';
import { userAgentOf } from './meta';

describe('the User-Agent as the trail keeps it', () => {
	it('keeps a browser’s as it came', () => {
		const chrome =
			'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A.240205.004) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
		expect(userAgentOf(chrome)).toBe(chrome);
		expect(userAgentOf(null)).toBeNull();
	});

	it('drops control and invisible characters, and masks what looks like an SSN', () => {
		expect(userAgentOf('Tablet/1.0 \u009b\u0085x\u200by\u0000')).toBe('Tablet/1.0 xy');
		expect(userAgentOf('Mozilla/5.0 SSN 587-31-4926')).toBe('Mozilla/5.0 SSN [number]');
		expect(userAgentOf('Kiosk 587 314 926 build')).toBe('Kiosk [number] build');
	});

	it('keeps at most 512 characters, cut after an SSN across the cut is masked', () => {
		expect(userAgentOf('a'.repeat(600))).toHaveLength(512);
		expect(userAgentOf(`${'a '.repeat(253)}587-31-4926`)).toBe(`${'a '.repeat(253)}[numbe`);
	});
});
