import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { CONNECT_TIMEOUT_SECONDS, problemCode } from './problems';
import { logError } from '$lib/server/log/log';
import { lockDataDir } from './lock';
import { startEmbedded, type EmbeddedThread } from './thread';
import * as schema from './schema';

export { schema };

/** The one database type the rest of the code sees, whether PGlite or a PostgreSQL server. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction or the database itself: functions that write take either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface Database {
	db: Db;
	kind: 'pglite' | 'postgres';
	close(): Promise<void>;
}

/** The migrations are not where a project's folder keeps them: a start with our words for it. */
export class MigrationsMissingError extends Error {
	constructor() {
		super(
			'[start] the portal could not find its database migrations (the drizzle folder beside ' +
				'package.json). Start it from the project folder (npm start, or npm run serve), or keep ' +
				'the drizzle folder beside the build folder.'
		);
		this.name = 'MigrationsMissingError';
	}
}

/**
 * The migrations, `drizzle/` at the project's root: in the working folder, as `npm start` runs,
 * or else above this module, which is inside the project from its sources and its build alike,
 * so that `node /path/to/build` works from any folder.
 */
function migrationsFolder(): string {
	let dir = dirname(fileURLToPath(import.meta.url));
	const places = [process.cwd()];
	for (let up = dirname(dir); up !== dir; dir = up, up = dirname(up)) places.push(dir);
	const found = places
		.map((p) => resolve(p, 'drizzle'))
		.find((d) => existsSync(resolve(d, 'meta', '_journal.json')));
	if (!found) throw new MigrationsMissingError();
	return found;
}

/** Any number that is ours: serializes migrations when several instances start at once. */
const MIGRATION_LOCK = 720_70_1207;

export interface OpenOptions {
	/** A PostgreSQL server; when absent, PGlite in `dataDir` (or in memory when dataDir is absent). */
	url?: string;
	dataDir?: string;
	/** Pool size for a PostgreSQL server. */
	max?: number;
	/** Who opens an embedded database in dataDir, named to anyone else who tries (see lock.ts). */
	holder?: string;
}

/**
 * DATABASE_URL as pg is to read it: `sslmode=prefer`, `require` or `verify-ca` as `verify-full`,
 * which is what pg 8 makes of them already, saying so in a warning of several lines at every
 * start. Said in the URL, the same check stays when pg 9 takes those modes as libpq does (with
 * no check of the server's name). A URL that asks for libpq's meaning (`uselibpqcompat`) is left
 * as it is.
 */
export function pgConnectionString(url: string): string {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return url;
	}
	const mode = parsed.searchParams.get('sslmode');
	if (!mode || !['prefer', 'require', 'verify-ca'].includes(mode)) return url;
	if (parsed.searchParams.has('uselibpqcompat')) return url;
	parsed.searchParams.set('sslmode', 'verify-full');
	return parsed.href;
}

/** Opens the database and applies pending migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
	if (opts.url) {
		const pool = new pg.Pool({
			connectionString: pgConnectionString(opts.url),
			max: opts.max ?? 10,
			// A server that drops packets (a host gone, a firewall) would hold a page for the
			// system's connect timeout, minutes; this ends it, and the page says to come back.
			connectionTimeoutMillis: CONNECT_TIMEOUT_SECONDS * 1000
		});
		// An idle connection the server ends (a restart, a failover, an idle-connection reaper)
		// is an 'error' on the pool, which would end the process unheard. The pool drops it and
		// opens a new one at the next statement.
		pool.on('error', (err) => {
			const what = 'PostgreSQL closed an idle connection; the next statement opens another';
			// pg's own error for it has no code, only words: named by ours (CLOSED, BROKEN…), not
			// as a bare "Error".
			const code = problemCode(err);
			if (code) console.error(`[database] ${what} (${code})`);
			else logError('database', what, err);
		});
		return { db: await migrated(pool), kind: 'postgres', close: () => pool.end() };
	}
	// PostgreSQL's default 128 MB of shared buffers would all be resident memory of this process
	// (PGlite runs in it); the embedded database is small and its pages stay in the OS's cache.
	const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];
	if (!opts.dataDir) {
		// In memory, for the unit tests: in this thread, with no folder for a thread to own.
		const client = new PGlite({ startParams });
		await client.waitReady;
		const pdb = drizzlePglite({ client, schema });
		await migratePglite(pdb, { migrationsFolder: migrationsFolder() });
		return { db: pdb as unknown as Db, kind: 'pglite', close: () => client.close() };
	}
	const dir = resolve(opts.dataDir, 'pglite');
	mkdirSync(dir, { recursive: true });
	const unlock = lockDataDir(opts.dataDir, opts.holder ?? 'the portal');
	let embedded: EmbeddedThread | undefined;
	try {
		// On a thread of its own, where its statements do not hold up the pages (see thread.ts).
		embedded = await startEmbedded(dir, startParams);
		const db = await migrated(embedded.pool);
		const { close } = embedded;
		return { db, kind: 'pglite', close: () => close().finally(unlock) };
	} catch (err) {
		await embedded?.close().catch(() => {});
		unlock();
		throw err;
	}
}

/** Applies pending migrations, one instance at a time, and gives the pool to drizzle. */
async function migrated(pool: pg.Pool): Promise<Db> {
	const client = await pool.connect();
	try {
		await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
		await migratePg(drizzlePg({ client, schema }), { migrationsFolder: migrationsFolder() });
	} finally {
		await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
		client.release();
	}
	return drizzlePg({ client: pool, schema }) as unknown as Db;
}

/** An empty, migrated, in-memory database for unit and contract tests. */
export function openMemoryDatabase(): Promise<Database> {
	return openDatabase({});
}
