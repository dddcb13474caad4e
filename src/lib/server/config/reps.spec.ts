import { describe, expect, it } from 'vitest';
import { ConfigError, isTimeZone, parseConfig } from './config';

describe('rep and console settings', () => {
	it('have documented defaults', () => {
		expect(parseConfig({})).toMatchObject({
			REP_SESSION_IDLE_MINUTES: 30,
			REP_SESSION_MAX_HOURS: 12,
			REP_SIGNIN_MAX_FAILURES: 5,
			REP_SIGNIN_MAX_FAILURES_PER_ADDRESS: 20,
			REP_SIGNIN_LOCKOUT_MINUTES: 15,
			CONSOLE_REFRESH_SECONDS: 10,
			OFFICE_TIME_ZONE: 'America/Chicago'
		});
	});

	it('take a real IANA zone only, and say so at start', () => {
		expect(parseConfig({ OFFICE_TIME_ZONE: ' Europe/Berlin ' }).OFFICE_TIME_ZONE).toBe(
			'Europe/Berlin'
		);
		for (const zone of ['Mars/Olympus_Mons', 'CST', '+05:00', '', 'America/Chicago; drop']) {
			expect(() => parseConfig({ OFFICE_TIME_ZONE: zone }), zone).toThrow(ConfigError);
		}
		try {
			parseConfig({ OFFICE_TIME_ZONE: 'Nowhere/Special', REP_SESSION_IDLE_MINUTES: '0' });
		} catch (err) {
			const problems = (err as ConfigError).problems;
			expect(problems).toHaveLength(2);
			expect(problems[0]).toBe('REP_SESSION_IDLE_MINUTES: must be a whole number from 1 to 1440');
			expect(problems[1]).toMatch(
				/^OFFICE_TIME_ZONE: must be an IANA time zone such as America\/Chicago/
			);
		}
		expect(isTimeZone('UTC')).toBe(true);
	});
});
