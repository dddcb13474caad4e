import { afterAll, describe, expect, it } from 'vitest';
import { openMemoryDatabase, schema, type Database } from '.';

describe('database', () => {
	let database: Database;
	afterAll(() => database?.close());

	it('opens PGlite in memory with the migrations applied', async () => {
		database = await openMemoryDatabase();
		const rows = await database.db
			.insert(schema.rateLimits)
			.values({ key: 'k', windowStart: new Date(0), count: 1 })
			.returning();
		expect(rows[0]?.count).toBe(1);
		expect(database.kind).toBe('pglite');
	});
});
