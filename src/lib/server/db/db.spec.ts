import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { openMemoryDatabase, pgConnectionString, schema, type Database } from '.';

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

describe('DATABASE_URL as pg reads it', () => {
	afterEach(() => vi.restoreAllMocks());

	it('says verify-full where pg would take require as it and warn, and leaves the rest', () => {
		const warned = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
		// pg reads the CA's file as it parses.
		const ca = join(mkdtempSync(join(tmpdir(), 'portal-ca-')), 'ca.pem');
		writeFileSync(ca, '-----BEGIN CERTIFICATE-----\n');
		for (const mode of ['prefer', 'require', 'verify-ca']) {
			const url = pgConnectionString(
				`postgres://portal:p%40ss@db.internal:6543/portal?sslmode=${mode}&sslrootcert=${ca}`
			);
			expect(url).toBe(
				`postgres://portal:p%40ss@db.internal:6543/portal?sslmode=verify-full&sslrootcert=${encodeURIComponent(ca)}`
			);
			// What pg makes of it: the same server, password and CA, checked in full, and no warning.
			// pg's own reading of the URL (not in its types).
			const client = new pg.Client({ connectionString: url }) as unknown as {
				connectionParameters: object;
			};
			expect(client.connectionParameters).toMatchObject({
				host: 'db.internal',
				port: 6543,
				password: 'p@ss',
				database: 'portal'
			});
		}
		expect(warned).not.toHaveBeenCalled();
		for (const url of [
			'postgres://portal@db.internal/portal',
			'postgres://portal@db.internal/portal?sslmode=disable',
			'postgres://portal@db.internal/portal?sslmode=verify-full',
			'postgres://portal@db.internal/portal?uselibpqcompat=true&sslmode=require'
		]) {
			expect(pgConnectionString(url)).toBe(url);
		}
	});
});
