import { and, eq, sql } from 'drizzle-orm';
import { plural } from '$lib/server/audit/labels';
import type { PgInsertSelectQueryBuilder } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '$lib/server/db';
import { preparedPer } from '$lib/server/db/prepared';
import { rateLimits } from '$lib/server/db/schema';

export interface Limit {
	/** What is limited and for whom, e.g. `open:ip:203.0.113.9`. */
	key: string;
	max: number;
	windowSeconds: number;
}

export interface LimitResult {
	ok: boolean;
	count: number;
	retryAfterSeconds: number;
	/** hitLockout's, when this hit was the last one let through: how long the lock it sets lasts. */
	pausedSeconds?: number;
}

/** How long a refusal says to wait: whole minutes, at least one ("1 minute", "14 minutes"). */
export const waitWords = (retryAfterSeconds: number) =>
	plural(Math.max(1, Math.ceil(retryAfterSeconds / 60)), 'minute');

/** The fixed window `now` falls in, and the seconds until the next one starts. */
function window(windowSeconds: number, now: Date) {
	const windowMs = windowSeconds * 1000;
	const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
	const retryAfterSeconds = Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000);
	return { windowStart, retryAfterSeconds };
}

/** A hit on a key whose window has a row already adds one to it. */
const ANOTHER_HIT = {
	target: [rateLimits.key, rateLimits.windowStart],
	set: { count: sql`${rateLimits.count} + 1` }
};

/** Many a form post runs this upsert (see preparedPer). */
const countHit = preparedPer((db) =>
	db
		.insert(rateLimits)
		.values({
			key: sql.placeholder('key'),
			windowStart: sql.placeholder('windowStart'),
			count: 1
		})
		.onConflictDoUpdate(ANOTHER_HIT)
		.returning({ count: rateLimits.count })
		.prepare('count_rate_limit_hit')
);

/**
 * hit()'s upsert for a statement that counts a hit as part of what it reads (a CTE): one hit on
 * each row the select yields, as { key, windowStart, count: 1 }; see windowStartOf.
 */
export const countHitsOf = (db: Tx, rows: PgInsertSelectQueryBuilder<typeof rateLimits>) =>
	db
		.insert(rateLimits)
		.select(rows)
		.onConflictDoUpdate(ANOTHER_HIT)
		.returning({ count: rateLimits.count });

/** The start of the window of a limit's length a hit at `now` counts in: for countHitsOf's rows. */
export const windowStartOf = (windowSeconds: number, now: Date) =>
	window(windowSeconds, now).windowStart;

/**
 * Counts one hit in a fixed window held in the database, so every instance shares the count.
 * One statement: the upsert is atomic, so two instances cannot both take the last slot.
 */
export async function hit(db: Db, limit: Limit, now = new Date()): Promise<LimitResult> {
	// A Date: in an insert's values a placeholder does go through the column's mapping.
	const [row] = await countHit(db).execute({
		key: limit.key,
		windowStart: windowStartOf(limit.windowSeconds, now)
	});
	return judge(limit, row?.count ?? 1, now);
}

/**
 * hit() for a limit that locks someone out (wrong passwords). In one fixed window, a run of
 * failures across the window's edge was two short runs, and five wrong passwords in a row could
 * leave the account open; so its hits count in the window `now` falls in and in the one before.
 * A refused hit is taken back, so trying while locked does not make the lock longer. The lock
 * lasts until enough of the hits that make it have left both windows: to the end of the window
 * of the last failure, or of the next one when that window alone holds the limit (at most two
 * windows), as pausedSeconds and retryAfterSeconds say.
 */
export async function hitLockout(db: Db, limit: Limit, now = new Date()): Promise<LimitResult> {
	const { retryAfterSeconds } = window(limit.windowSeconds, now);
	const current = await hit(db, limit, now);
	const count = current.count + (await hitsBefore(db, limit, now));
	const lasts = (inWindow: number) => pauseLasts(limit, inWindow, now);
	if (count < limit.max) return { ok: true, count, retryAfterSeconds };
	// The last one let through: the next is refused, for as long as it would be told then.
	if (count === limit.max) {
		return { ok: true, count, retryAfterSeconds, pausedSeconds: lasts(current.count) };
	}
	await undoHit(db, limit, now);
	return { ok: false, count, retryAfterSeconds: lasts(current.count - 1) };
}

/**
 * hitLockout's judgement without a hit: whether the next try would be refused now, and for how
 * long (seconds), or null while one would be let through. For a page that says so before anyone
 * tries (a reload of the lock screen).
 */
export async function lockoutNow(db: Db, limit: Limit, now = new Date()): Promise<number | null> {
	const [current, before] = await Promise.all([peek(db, limit, now), hitsBefore(db, limit, now)]);
	return current.count + before < limit.max ? null : pauseLasts(limit, current.count, now);
}

/** A lockout's hits in the window before the one `now` falls in: peek's, a window earlier. */
const hitsBefore = async (db: Db, limit: Limit, now: Date) =>
	(await peek(db, limit, new Date(now.getTime() - limit.windowSeconds * 1000))).count;

/**
 * How long a lockout's pause lasts from `now`, its window holding `inWindow` hits: to the window's
 * end, or through the next when this one alone holds the limit (its hits still count there, and
 * one more fits only while they are fewer).
 */
const pauseLasts = (limit: Limit, inWindow: number, now: Date) =>
	window(limit.windowSeconds, now).retryAfterSeconds +
	(inWindow < limit.max ? 0 : limit.windowSeconds);

/** Where a limit stands once its window holds `count` hits, this one included. */
export function judge(limit: Limit, count: number, now = new Date()): LimitResult {
	return {
		ok: count <= limit.max,
		count,
		retryAfterSeconds: window(limit.windowSeconds, now).retryAfterSeconds
	};
}

/**
 * Takes back one hit of the window `now` falls in: for limits that count failures, a request
 * counted up front (atomically, so racing requests cannot slip past the limit) that then
 * succeeded.
 */
export async function undoHit(db: Db, limit: Limit, now = new Date()): Promise<void> {
	const { windowStart } = window(limit.windowSeconds, now);
	await db
		.update(rateLimits)
		.set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
		.where(and(eq(rateLimits.key, limit.key), eq(rateLimits.windowStart, windowStart)));
}

/** Forgets every count of a key (e.g. a rep's failed sign-ins once the right password came). */
export async function clearLimit(db: Db, key: string): Promise<void> {
	await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/**
 * Where a limit stands without counting a hit: `ok` while one more hit would still be allowed.
 * For limits that count failures only (a wrong key), checked before the attempt is judged.
 */
export async function peek(db: Db, limit: Limit, now = new Date()): Promise<LimitResult> {
	const { windowStart, retryAfterSeconds } = window(limit.windowSeconds, now);
	const [row] = await db
		.select({ count: rateLimits.count })
		.from(rateLimits)
		.where(and(eq(rateLimits.key, limit.key), eq(rateLimits.windowStart, windowStart)));
	const count = row?.count ?? 0;
	return { ok: count < limit.max, count, retryAfterSeconds };
}

/** Drops windows that ended long ago; run from the background worker. */
export async function pruneRateLimits(db: Db, olderThan: Date): Promise<void> {
	await db.delete(rateLimits).where(sql`${rateLimits.windowStart} < ${olderThan}`);
}
