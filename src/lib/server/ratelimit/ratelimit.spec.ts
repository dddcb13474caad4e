import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMemoryDatabase, type Database } from '$lib/server/db';
import {
	clearLimit,
	hit,
	hitLockout,
	lockoutNow,
	pruneRateLimits,
	undoHit,
	waitWords
} from './ratelimit';

describe('how long a refusal says to wait', () => {
	it('gives whole minutes, rounded up, and never less than one', () => {
		expect(waitWords(1)).toBe('1 minute');
		expect(waitWords(60)).toBe('1 minute');
		expect(waitWords(61)).toBe('2 minutes');
		expect(waitWords(28 * 60)).toBe('28 minutes');
	});
});

describe('rate limits in the database', () => {
	let database: Database;
	beforeAll(async () => {
		database = await openMemoryDatabase();
	});
	afterAll(() => database.close());

	it('allows up to the limit in a window, then refuses with the time to wait', async () => {
		const limit = { key: 'test:a', max: 3, windowSeconds: 60 };
		const at = new Date('2026-11-22T10:00:10Z');
		const results = [];
		for (let i = 0; i < 4; i++) results.push(await hit(database.db, limit, at));
		expect(results.map((r) => r.ok)).toEqual([true, true, true, false]);
		expect(results[3]!.retryAfterSeconds).toBe(50);
	});

	it('starts afresh in the next window and keeps keys apart', async () => {
		const limit = { key: 'test:b', max: 1, windowSeconds: 60 };
		expect((await hit(database.db, limit, new Date('2026-11-22T10:00:00Z'))).ok).toBe(true);
		expect((await hit(database.db, limit, new Date('2026-11-22T10:00:30Z'))).ok).toBe(false);
		expect((await hit(database.db, limit, new Date('2026-11-22T10:01:00Z'))).ok).toBe(true);
		expect(
			(await hit(database.db, { ...limit, key: 'test:c' }, new Date('2026-11-22T10:00:30Z'))).ok
		).toBe(true);
	});

	it('counts concurrent hits exactly', async () => {
		const limit = { key: 'test:d', max: 5, windowSeconds: 60 };
		const at = new Date('2026-11-22T11:00:00Z');
		const results = await Promise.all(Array.from({ length: 8 }, () => hit(database.db, limit, at)));
		expect(results.filter((r) => r.ok)).toHaveLength(5);
		expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
	});

	it('takes back a hit of the current window, and forgets a key', async () => {
		const limit = { key: 'test:undo', max: 2, windowSeconds: 60 };
		const at = new Date('2026-11-22T12:00:00Z');
		await hit(database.db, limit, at);
		await hit(database.db, limit, at);
		await undoHit(database.db, limit, at);
		expect((await hit(database.db, limit, at)).count).toBe(2);
		await undoHit(database.db, { ...limit, key: 'test:never' }, at);
		expect((await hit(database.db, { ...limit, key: 'test:never' }, at)).count).toBe(1);
		await clearLimit(database.db, limit.key);
		expect((await hit(database.db, limit, at)).count).toBe(1);
	});

	it('says before a try what hitLockout would answer it, counting nothing', async () => {
		const limit = { key: 'test:lockout', max: 3, windowSeconds: 60 };
		// Failures across a window's edge, tries while paused, and after the pause.
		const seconds = [10, 50, 58, 61, 65, 100, 119, 125, 181, 200, 241, 250];
		let refused = 0;
		for (const s of seconds) {
			const at = new Date(Date.parse('2026-11-23T10:00:00Z') + s * 1000);
			const said = await lockoutNow(database.db, limit, at);
			// Asked twice, the same: the look counts nothing.
			expect(await lockoutNow(database.db, limit, at)).toBe(said);
			const tried = await hitLockout(database.db, limit, at);
			expect(said === null, `at ${s} s`).toBe(tried.ok);
			if (!tried.ok) {
				refused++;
				expect(said, `at ${s} s`).toBe(tried.retryAfterSeconds);
			}
			// The last try let through starts the pause the next look reports.
			if (tried.pausedSeconds !== undefined)
				expect(await lockoutNow(database.db, limit, at)).toBe(tried.pausedSeconds);
		}
		expect(refused).toBeGreaterThanOrEqual(4);
	});

	it('prunes old windows', async () => {
		await pruneRateLimits(database.db, new Date('2026-11-22T10:30:00Z'));
		const after = await hit(
			database.db,
			{ key: 'test:a', max: 3, windowSeconds: 60 },
			new Date('2026-11-22T10:00:10Z')
		);
		expect(after.count).toBe(1);
	});
});
