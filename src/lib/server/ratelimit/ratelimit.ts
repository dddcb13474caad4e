import { sql } from 'drizzle-orm';
import type { Db } from '$lib/server/db';
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
}

/**
 * Counts one hit in a fixed window held in the database, so every instance shares the count.
 * One statement: the upsert is atomic, so two instances cannot both take the last slot.
 */
const windowOf = (limit: Limit, now: Date) => {
	const windowMs = limit.windowSeconds * 1000;
	return { windowMs, windowStart: new Date(Math.floor(now.getTime() / windowMs) * windowMs) };
};

export async function hit(db: Db, limit: Limit, now = new Date()): Promise<LimitResult> {
	const { windowMs, windowStart } = windowOf(limit, now);
	const [row] = await db
		.insert(rateLimits)
		.values({ key: limit.key, windowStart, count: 1 })
		.onConflictDoUpdate({
			target: [rateLimits.key, rateLimits.windowStart],
			set: { count: sql`${rateLimits.count} + 1` }
		})
		.returning({ count: rateLimits.count });
	const count = row?.count ?? 1;
	const retryAfterSeconds = Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000);
	return { ok: count <= limit.max, count, retryAfterSeconds };
}

/**
 * Takes back one hit of the window `now` falls in: for limits that count failures, a request
 * counted up front (atomically, so racing requests cannot slip past the limit) that then
 * succeeded.
 */
export async function undoHit(db: Db, limit: Limit, now = new Date()): Promise<void> {
	const { windowStart } = windowOf(limit, now);
	await db
		.update(rateLimits)
		.set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
		.where(sql`${rateLimits.key} = ${limit.key} and ${rateLimits.windowStart} = ${windowStart}`);
}

/** Forgets every count of a key (e.g. a rep's failed sign-ins once the right password came). */
export async function clearLimit(db: Db, key: string): Promise<void> {
	await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`);
}

/** Drops windows that ended long ago; run from the background worker. */
export async function pruneRateLimits(db: Db, olderThan: Date): Promise<void> {
	await db.delete(rateLimits).where(sql`${rateLimits.windowStart} < ${olderThan}`);
}
