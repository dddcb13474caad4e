import { describe, expect, it } from 'vitest';
import { officeTime } from './time';

describe('office time', () => {
	it('show every time in the office’s zone with the zone named, summer or winter', () => {
		const winter = new Date('2026-01-15T18:30:00Z');
		const summer = new Date('2026-07-15T18:30:00Z');
		expect(officeTime(winter, 'America/Chicago')).toBe('Jan 15, 2026, 12:30 PM CST');
		expect(officeTime(summer, 'America/Chicago')).toBe('Jul 15, 2026, 1:30 PM CDT');
		expect(officeTime(summer, 'America/Phoenix')).toBe('Jul 15, 2026, 11:30 AM MST');
	});
});
