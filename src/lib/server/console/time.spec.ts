import { describe, expect, it } from 'vitest';
import { officeTime, serviceDate } from './time';

describe('office time', () => {
	it('show every time in the office’s zone with the zone named, summer or winter', () => {
		const winter = new Date('2026-01-15T18:30:00Z');
		const summer = new Date('2026-07-15T18:30:00Z');
		expect(officeTime(winter, 'America/Chicago')).toBe('Jan 15, 2026, 12:30 PM CST');
		expect(officeTime(summer, 'America/Chicago')).toBe('Jul 15, 2026, 1:30 PM CDT');
		expect(officeTime(summer, 'America/Phoenix')).toBe('Jul 15, 2026, 11:30 AM MST');
	});
});

describe('the service’s dates', () => {
	it('writes MM/DD/YYYY as the rep pages write dates, the same day in every zone', () => {
		expect(serviceDate('11/21/2026')).toBe('Nov 21, 2026');
		expect(serviceDate('1/2/2027')).toBe('Jan 2, 2027');
		expect(serviceDate(' 03/04/2026 ')).toBe('Mar 4, 2026');
	});

	it('shows anything else as the service gave it', () => {
		for (const raw of ['2026-11-21', '13/01/2026', '11/21/26', '', 'soon']) {
			expect(serviceDate(raw)).toBe(raw);
		}
	});
});
