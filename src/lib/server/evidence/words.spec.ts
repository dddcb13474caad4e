import { describe, expect, it } from 'vitest';
import { describeDevice, officeTime, utcTime } from './words';

describe('evidence words', () => {
	it('names a device as a person would', () => {
		expect(
			describeDevice(
				'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
			)
		).toBe('Chrome 120.0 on Windows 10 (desktop)');
		expect(describeDevice(null)).toBe('not recorded');
		expect(describeDevice('curl/8.5.0')).toBe('Unknown browser');
	});

	it('prints the office time with its zone and UTC alike', () => {
		const at = new Date('2026-07-04T15:04:05Z');
		expect(officeTime(at, 'America/Chicago')).toBe('Jul 4, 2026, 10:04:05 AM CDT');
		expect(officeTime(new Date('2026-01-04T15:04:05Z'), 'America/Chicago')).toBe(
			'Jan 4, 2026, 9:04:05 AM CST'
		);
		expect(utcTime(at)).toBe('2026-07-04 15:04:05 UTC');
	});
});
