import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { openMemoryDatabase } from '.';
import { databaseProblem, databaseUnavailable } from './problems';

const URL_ = 'postgres://portal:s3cret-pass@db.internal:6543/portal_prod';

describe('why PostgreSQL could not be opened', () => {
	it('says it in our words, with the server, user and database but never the password', () => {
		const cases: [string, RegExp][] = [
			['28P01', /^the PostgreSQL server at db\.internal:6543 refused the password of portal/],
			['3D000', /has no database named portal_prod/],
			['ECONNREFUSED', /^nothing answers at db\.internal:6543: is PostgreSQL running there/],
			['ENOTFOUND', /^the host db\.internal in DATABASE_URL is not known/],
			['DEPTH_ZERO_SELF_SIGNED_CERT', /shows a self-signed certificate.*sslrootcert=/]
		];
		for (const [code, words] of cases) {
			const text = databaseProblem(Object.assign(new Error('driver text'), { code }), URL_);
			expect(text, code).toMatch(words);
			expect(text, code).toMatch(new RegExp(`\\(${code}\\)\\.$`));
			expect(text, code).not.toContain('s3cret-pass');
			expect(text, code).not.toContain('driver text');
		}
	});

	const HINT =
		'A password with @ # / ? : or % in it must be percent-encoded in DATABASE_URL, e.g. @ as %40 and # as %23.';
	const failed = (code: string, url: string) =>
		databaseProblem(Object.assign(new Error(), { code }), url);

	it('points at an @ left unencoded in the password', () => {
		const raw = 'postgres://portal:p@ss@db.internal/portal';
		const text = failed('28P01', raw);
		expect(text).toMatch(/^the PostgreSQL server at db\.internal:5432 refused the password/);
		expect(text?.endsWith(`(28P01). ${HINT}`)).toBe(true);
		expect(text).not.toContain('p@ss');
		expect(failed('28P01', URL_)).not.toContain('%40');
		// A setting's value may hold an @ of its own.
		expect(failed('28P01', `${URL_}?application_name=ops@example`)).not.toContain('%40');
	});

	it('names no piece of a password whose # / or ? cut the URL short, and says to encode it', () => {
		// What pg reads here: the host "zz", with the rest a fragment.
		const cut = 'postgres://opwalk:p@zz#qx9@127.0.0.1:3503/opwalk';
		const text = failed('ENOTFOUND', cut);
		expect(text).toBe(
			`DATABASE_URL's password seems to hold a / ? or #, which ends a URL's host part early, so what was read as its host, port or database is a piece of the password (ENOTFOUND). ${HINT}`
		);
		// Read as host "opwalk", port 12 and database "zz@127.0.0.1:3503/opwalk".
		expect(failed('ECONNREFUSED', 'postgres://opwalk:12/zz@127.0.0.1:3503/opwalk')).toMatch(
			/^DATABASE_URL's password seems to hold .*\(ECONNREFUSED\)\. A password with/
		);
		// Read as host "u" and port 12, with the rest a query that looks like a setting.
		expect(failed('ECONNREFUSED', 'postgres://u:12?x=y@h/db')).toMatch(
			/^DATABASE_URL's password seems to hold .*\(ECONNREFUSED\)\./
		);
		// Read as host "hq7", with the rest a query.
		for (const said of [text, failed('ENOTFOUND', 'postgres://u:p@hq7?zz@db.internal/db')]) {
			expect(said).toMatch(/^DATABASE_URL's password seems to hold/);
			expect(said).not.toMatch(/zz|qx9|hq7|opwalk/);
		}
	});

	it('says a URL pg cannot read is not one, and why when a password looks to be the cause', async () => {
		// A # or ? with no @ before it leaves a port that is not a number.
		const url = 'postgres://opwalk:pa#ss@127.0.0.1:3503/opwalk';
		const pool = new pg.Pool({ connectionString: url });
		// Thrown as the pool makes its client, before any promise: the start awaits it in an
		// async function, which turns it into a rejection all the same.
		const thrown = await (async () => pool.connect())().then(
			() => null,
			(e: unknown) => e
		);
		await pool.end();
		expect(databaseProblem(thrown, url)).toBe(
			`DATABASE_URL cannot be read as a URL: its password seems to hold a / ? or #, which ends a URL's host part early (ERR_INVALID_URL). ${HINT}`
		);
		expect(databaseProblem(thrown, 'postgres://db.internal:54x32/portal')).toBe(
			'DATABASE_URL cannot be read as a URL: check its host and port (ERR_INVALID_URL).'
		);
	});

	it('names a socket’s directory as pg reads it from ?host=, where URL would refuse it', async () => {
		expect(failed('28000', 'postgres://portal@/portal_prod?host=/var/run/postgresql')).toBe(
			'the PostgreSQL server at the socket in /var/run/postgresql does not let portal connect from here (pg_hba.conf), or the user does not exist (28000).'
		);
		// What pg throws for a directory without PostgreSQL's socket in it.
		const url = 'postgres://portal:pw@/portal?host=/nonexistent-socket-dir';
		const client = new pg.Client({ connectionString: url });
		const err = await client.connect().then(
			() => null,
			(e: unknown) => e
		);
		expect(databaseProblem(err, url)).toBe(
			'nothing answers at the socket in /nonexistent-socket-dir (port 5432): is PostgreSQL running on this machine, and is that its socket directory (unix_socket_directories)? (ENOENT).'
		);
		// A TLS file named in the URL is not read to say where the server is.
		expect(
			failed(
				'28P01',
				'postgres://portal@db.internal/portal?sslmode=verify-full&sslrootcert=/no/ca.pem'
			)
		).toMatch(/^the PostgreSQL server at db\.internal:5432 refused the password of portal/);
		expect(failed('ECONNREFUSED', 'postgres://portal@[::1]:6543/portal')).toMatch(
			/^nothing answers at \[::1\]:6543:/
		);
	});

	it('reads a user with a lone %, as pg does, rather than failing on it', () => {
		expect(failed('28P01', 'postgres://ops%zz:pw@db.internal/portal')).toMatch(
			/refused the password of ops%zz:/
		);
	});

	it('leaves what it does not know, and starts without a URL, to the usual line', () => {
		expect(databaseProblem(Object.assign(new Error(), { code: 'XX000' }), URL_)).toBeNull();
		expect(databaseProblem(new Error('no code'), URL_)).toBeNull();
		expect(databaseProblem(Object.assign(new Error(), { code: '28P01' }), undefined)).toBeNull();
	});

	it('names pg’s refusals that come without a code, also as drizzle wraps them', () => {
		const wrapped = (message: string) =>
			Object.assign(new Error('Failed query: select 1'), { cause: new Error(message) });
		expect(
			databaseProblem(
				new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string'),
				'postgres://portal@db.internal:6543/portal_prod'
			)
		).toBe(
			'the PostgreSQL server at db.internal:6543 asks portal for a password, and DATABASE_URL gives none (NO_PASSWORD).'
		);
		expect(databaseProblem(wrapped('timeout exceeded when trying to connect'), URL_)).toBe(
			'the PostgreSQL server at db.internal:6543 did not answer within 10 s: a firewall that drops the connection, or the wrong host or port? (TIMEOUT).'
		);
		expect(databaseProblem(wrapped('Connection terminated unexpectedly'), URL_)).toMatch(
			/closed the connection without answering: is it PostgreSQL that listens at that port/
		);
		expect(databaseProblem(wrapped('some other words'), URL_)).toBeNull();
	});

	it('reads what pg really throws for a port where another service listens, or none answers', async () => {
		// An HTTP server answers the startup message with its own refusal and hangs up; a black
		// hole takes the connection and says nothing.
		const http = createServer((socket) =>
			socket.once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'))
		);
		const hole = createServer(() => {});
		const ports: number[] = [];
		for (const server of [http, hole]) {
			await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
			ports.push((server.address() as { port: number }).port);
		}
		try {
			const thrown = async (port: number) => {
				const url = `postgres://portal:pw@127.0.0.1:${port}/portal`;
				const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 300 });
				const err = await client.connect().then(
					() => null,
					(e: unknown) => e
				);
				return databaseProblem(err, url);
			};
			expect(await thrown(ports[0]!)).toMatch(/\(CLOSED\)\.$/);
			expect(await thrown(ports[1]!)).toMatch(/did not answer within 10 s.*\(TIMEOUT\)\.$/);
		} finally {
			http.close();
			hole.close();
		}
	});

	it('reads what pg really throws for a server that is not there', async () => {
		// Port 9 (discard) has nothing listening on this machine.
		const url = 'postgres://portal:pw@127.0.0.1:9/portal';
		const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
		const err = await client.connect().then(
			() => null,
			(e: unknown) => e
		);
		expect(databaseProblem(err, url)).toMatch(/^nothing answers at 127\.0\.0\.1:9/);
	});

	it('reads what pg throws when DATABASE_URL asks for TLS and the server has none', async () => {
		// A server without TLS answers the protocol's SSLRequest with a single 'N'.
		const server = createServer((socket) => socket.once('data', () => socket.end('N')));
		await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
		const { port } = server.address() as { port: number };
		try {
			const url = `postgres://portal:pw@127.0.0.1:${port}/portal?sslmode=no-verify`;
			const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
			const err = await client.connect().then(
				() => null,
				(e: unknown) => e
			);
			expect(databaseProblem(err, url)).toBe(
				`the PostgreSQL server at 127.0.0.1:${port} does not offer TLS, which DATABASE_URL's sslmode asks for: turn TLS on at the server, or take sslmode out of DATABASE_URL on a network you trust (NO_SSL).`
			);
		} finally {
			server.close();
		}
	});
});

describe('whether the database is away, rather than a statement wrong', () => {
	/** What a statement through drizzle and a pool throws with a server at `port` (drizzle wraps it). */
	async function failure(port: number): Promise<unknown> {
		const pool = new pg.Pool({
			connectionString: `postgres://portal:pw@127.0.0.1:${port}/portal`,
			connectionTimeoutMillis: 500
		});
		try {
			return await drizzle(pool)
				.execute(sql`select 1`)
				.then(
					() => null,
					(e: unknown) => e
				);
		} finally {
			await pool.end();
		}
	}

	/** A server at a free port that does `what` with each connection. */
	async function server(what: (socket: import('node:net').Socket) => void) {
		const s = createServer(what);
		await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
		return { port: (s.address() as { port: number }).port, close: () => s.close() };
	}

	it('is so for nothing listening, a connection cut and a server that never answers', async () => {
		// Port 9 (discard) has nothing listening on this machine.
		expect(databaseUnavailable(await failure(9))).toBe(true);
		const cuts = await server((socket) => socket.destroy());
		const silent = await server(() => {});
		try {
			for (const { port } of [cuts, silent]) {
				const err = await failure(port);
				expect(err).toBeInstanceOf(Error);
				expect(databaseUnavailable(err), String((err as Error).cause ?? err)).toBe(true);
			}
		} finally {
			cuts.close();
			silent.close();
		}
	});

	it('is not so for a statement the database refused, or for our own mistakes', async () => {
		const database = await openMemoryDatabase();
		try {
			const refused = await database.db.execute(sql`select from no_such_table`).then(
				() => null,
				(e: unknown) => e
			);
			expect(refused).toBeInstanceOf(Error);
			expect(databaseUnavailable(refused)).toBe(false);
		} finally {
			await database.close();
		}
		expect(databaseUnavailable(Object.assign(new Error(), { code: '23505' }))).toBe(false);
		expect(databaseUnavailable(new TypeError('x is undefined'))).toBe(false);
		expect(databaseUnavailable(undefined)).toBe(false);
	});

	it('reads pg’s codeless words for a lost connection, not those of a wrong setting', () => {
		const wrapped = (message: string) =>
			Object.assign(new Error('Failed query: select 1'), { cause: new Error(message) });
		for (const words of [
			'Client has encountered a connection error and is not queryable',
			'timeout expired',
			'Connection terminated unexpectedly'
		]) {
			expect(databaseUnavailable(wrapped(words)), words).toBe(true);
		}
		for (const words of [
			'The server does not support SSL connections',
			'SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string',
			'Connection terminated unexpectedly, said a test'
		]) {
			expect(databaseUnavailable(wrapped(words)), words).toBe(false);
		}
		// A pool's broken client is no start-up problem to name.
		const broken = new Error('Client has encountered a connection error and is not queryable');
		expect(databaseProblem(broken, URL_)).toBeNull();
	});
});
