import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lostAt, tryStanding } from './tries';

const HOUR = 3_600_000;
const rules = { max: 2, windowMs: 24 * HOUR };

describe('tryStanding', () => {
	it('locks for a full window from the try that reached the limit, not from the older one', () => {
		const first = 0;
		const second = 20 * HOUR;
		// A rolling count would lift at first + 24 h (4 hours after the second try).
		expect(tryStanding([first, second], second + 5 * HOUR, rules)).toEqual({
			used: 1,
			lockedUntil: second + 24 * HOUR
		});
		expect(tryStanding([first, second], second + 24 * HOUR - 1, rules).lockedUntil).toBe(
			second + 24 * HOUR
		);
		expect(tryStanding([first, second], second + 24 * HOUR, rules)).toEqual({
			used: 0,
			lockedUntil: null
		});
	});

	it('does not lock on tries a window or more apart', () => {
		expect(tryStanding([0, 24 * HOUR], 24 * HOUR + 1, rules)).toEqual({
			used: 1,
			lockedUntil: null
		});
		expect(tryStanding([0, 24 * HOUR - 1], 24 * HOUR, rules).lockedUntil).toBe(48 * HOUR - 1);
	});

	it('holds a merchant who tries whenever allowed to the limit, a full window per lock', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 4 }),
				fc.array(fc.integer({ min: 0, max: 60 * 60 }), { minLength: 1, maxLength: 30 }),
				(max, gapsInMinutes) => {
					const r = { max, windowMs: 24 * HOUR };
					const lost: number[] = [];
					let now = 0;
					for (const gap of gapsInMinutes) {
						now += gap * 60_000;
						const before = tryStanding(lost, now, r);
						// Nobody starts a try while locked: the merchant waits for the lift.
						if (before.lockedUntil !== null) {
							expect(before.lockedUntil).toBeGreaterThan(now);
							now = before.lockedUntil;
							const lifted = tryStanding(lost, now, r);
							// Once a lock lifts, the window holds none of the tries that made it.
							expect(lifted).toEqual({ used: 0, lockedUntil: null });
						}
						expect(tryStanding(lost, now, r).used).toBeLessThan(max);
						lost.push(now);
						const after = tryStanding(lost, now, r);
						expect(after.used).toBeLessThanOrEqual(max);
						// The try that reaches the limit locks for a full window from itself.
						expect(after.lockedUntil).toBe(after.used === max ? now + r.windowMs : null);
					}
				}
			)
		);
	});
});

describe('lostAt', () => {
	const deadlineAt = new Date('2026-03-10T18:02:00Z');
	const finishedAt = new Date('2026-03-10T18:01:10Z');
	it('is the verdict for answers judged wrong, and the deadline for any other try', () => {
		expect(lostAt({ outcome: 'failed', deadlineAt, finishedAt })).toBe(finishedAt);
		// Closed as late when somebody noticed, hours after: it was lost at its deadline.
		const noticed = new Date('2026-03-10T23:00:00Z');
		expect(lostAt({ outcome: 'late', deadlineAt, finishedAt: noticed })).toBe(deadlineAt);
		expect(lostAt({ outcome: 'pending', deadlineAt, finishedAt: null })).toBe(deadlineAt);
		expect(lostAt({ outcome: 'answering', deadlineAt, finishedAt: null })).toBe(deadlineAt);
	});
});
