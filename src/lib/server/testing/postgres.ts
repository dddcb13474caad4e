import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The PostgreSQL server of the database tests (`.ci/run` starts one and sets TEST_DATABASE_URL);
 * CI fails rather than skip without one.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
if (!TEST_DATABASE_URL && process.env.CI) {
	throw new Error('TEST_DATABASE_URL must be set in CI (see .ci/run).');
}

async function admin<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
	const client = new pg.Client({ connectionString: url });
	await client.connect();
	try {
		return await work(client);
	} finally {
		await client.end();
	}
}

/**
 * A database of its own on the test server, dropped afterwards: spec files run in parallel, and
 * each migrates and fills its own.
 */
export async function throwawayDatabase(url: string) {
	const name = `portal_test_${randomBytes(6).toString('hex')}`;
	await admin(url, (c) => c.query(`create database ${name}`));
	const own = new URL(url);
	own.pathname = `/${name}`;
	return {
		url: own.toString(),
		drop: () =>
			admin(url, async (c) => {
				// A pool's end() resolves before its connections have finished closing. Forcing the
				// drop then cuts them off mid-goodbye, and their clients report it as an unhandled
				// error of the spec that closed them (seen once in CI). So wait up to five seconds for
				// them to go; the force is for anything a spec left open.
				for (let i = 0; i < 100; i++) {
					const { rows } = await c.query<{ n: number }>(
						'select count(*)::int as n from pg_stat_activity where datname = $1',
						[name]
					);
					if (rows[0]?.n === 0) break;
					await new Promise((r) => setTimeout(r, 50));
				}
				await c.query(`drop database if exists ${name} with (force)`);
			})
	};
}
