// For vitest specs only: the e2e tests import postgres.ts, and Playwright has no vitest hooks.
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Database } from '$lib/server/db';
import { TEST_DATABASE_URL, throwawayDatabase } from './postgres';

/**
 * Two pools on a throwaway database, as two instances of the portal would hold: opened before the
 * enclosing block's tests (the array is filled then), closed and the database dropped after them.
 */
export function twoInstancePools(): Database[] {
	const pools: Database[] = [];
	let db: Awaited<ReturnType<typeof throwawayDatabase>> | undefined;
	beforeAll(async () => {
		db = await throwawayDatabase(TEST_DATABASE_URL!);
		const url = db.url;
		pools.push(...(await Promise.all([1, 2].map(() => openDatabase({ url })))));
	});
	afterAll(async () => {
		await Promise.all(pools.map((p) => p.close()));
		await db?.drop();
	});
	return pools;
}
