import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedDatabaseError, startEmbedded, type EmbeddedThread } from './thread';

describe('the embedded database on its own thread', () => {
	const dir = mkdtempSync(join(tmpdir(), 'portal-thread-'));
	let embedded: EmbeddedThread;
	afterAll(async () => {
		await embedded?.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it('answers pg, statement after statement, with one connection queuing the rest', async () => {
		embedded = await startEmbedded(join(dir, 'pglite'), PGlite.defaultStartParams);
		const { pool } = embedded;
		await pool.query('create table t (id int primary key, v text)');
		// More callers at once than the one connection: each waits its turn and gets its own row.
		await Promise.all(
			Array.from({ length: 30 }, (_, i) =>
				pool.query('insert into t values ($1, $2)', [i, `v${i}`])
			)
		);
		const rows = await Promise.all(
			Array.from({ length: 30 }, (_, i) =>
				pool.query({ name: 'by_id', text: 'select v from t where id = $1', values: [i] })
			)
		);
		expect(rows.map((r) => r.rows[0].v)).toEqual(Array.from({ length: 30 }, (_, i) => `v${i}`));
		// A message larger than one post's worth, and an answer as large.
		const big = 'x'.repeat(300_000);
		await pool.query('insert into t values ($1, $2)', [1000, big]);
		const back = await pool.query('select v from t where id = 1000');
		expect(back.rows[0].v).toBe(big);
	});

	it('gives a new connection a clean session: no transaction and no statement left by the last', async () => {
		const { pool } = embedded;
		const client = await pool.connect();
		await client.query({ name: 'count_t', text: 'select count(*)::int as n from t' });
		await client.query('begin');
		await client.query('delete from t');
		// The connection is dropped in the middle of its transaction.
		client.release(true);
		const again = await pool.connect();
		try {
			// The same name is prepared afresh, and the delete was rolled back.
			const r = await again.query({ name: 'count_t', text: 'select count(*)::int as n from t' });
			expect(r.rows[0].n).toBe(31);
		} finally {
			again.release();
		}
	});

	it('reports a database error as PostgreSQL does, and goes on', async () => {
		const { pool } = embedded;
		await expect(pool.query('insert into t values (1, $1)', ['dup'])).rejects.toMatchObject({
			code: '23505'
		});
		expect((await pool.query('select 1 as one')).rows[0].one).toBe(1);
	});

	it('keeps what was written across a close and a new start on the folder', async () => {
		await embedded.close();
		embedded = await startEmbedded(join(dir, 'pglite'), PGlite.defaultStartParams);
		const r = await embedded.pool.query('select count(*)::int as n from t');
		expect(r.rows[0].n).toBe(31);
	});

	it('says the database could not be opened, by its error code alone, when the folder is not one', async () => {
		const notAFolder = join(dir, 'a-file');
		writeFileSync(notAFolder, 'not a database');
		const failed = await startEmbedded(notAFolder, PGlite.defaultStartParams).catch((e) => e);
		expect(failed).toBeInstanceOf(EmbeddedDatabaseError);
		expect(failed.message).toBe('the embedded database could not be opened');
		expect(failed.message).not.toContain(dir);
		// The working thread is untouched by the other's failure.
		expect((await embedded.pool.query('select 1 as one')).rows[0].one).toBe(1);
	});
});
