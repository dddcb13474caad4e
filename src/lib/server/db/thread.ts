import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Duplex } from 'node:stream';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { logError } from '$lib/server/log/log';

/**
 * The embedded database on a thread of its own. PGlite is PostgreSQL compiled to WebAssembly: in
 * the portal's thread each statement took 320–540 µs of the thread that also renders every page,
 * where pg on a PostgreSQL server takes 90–140 µs (tests/bench/NOTES.md, section 8). Here PGlite
 * runs in a worker and the portal talks to it with pg, as it does to a PostgreSQL server: pg writes
 * the wire protocol's bytes into a stream, the stream posts them to the worker, and PGlite answers
 * them (embedded-worker.js, a file a worker can start from a build and from the sources alike).
 *
 * Written here rather than taken from `@electric-sql/pglite-socket`, which does the same over a
 * socket: a socket is a door other local users can knock on (it has no password), and that
 * package pins another PGlite version as its peer.
 *
 * PGlite has one session, so one connection: its prepared statements and its transactions are the
 * session's. The pool of one queues the rest, as PGlite's own lock did in the process.
 */

type FromWorker =
	| { type: 'ready' | 'closed' }
	| { type: 'failed' | 'broken'; name?: string; code?: string }
	| { type: 'bytes'; id: number; bytes: Uint8Array };

/** What pg takes for its socket: bytes written go to the worker, the worker's answers come out. */
class ThreadStream extends Duplex {
	private batch: Buffer[] = [];
	/** This connection's number: a closing one may still send while the next one starts. */
	id = 0;

	constructor(private readonly thread: Thread) {
		super();
	}

	// The parts of net.Socket that pg calls.
	connect() {
		this.thread.attach(this);
		process.nextTick(() => this.emit('connect'));
		return this;
	}
	setNoDelay() {
		return this;
	}
	setKeepAlive() {
		return this;
	}
	ref() {
		return this;
	}
	unref() {
		return this;
	}

	override _read() {}

	override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error) => void) {
		// pg writes a statement's messages (parse, bind, execute, sync) one by one in the same
		// tick: they go over together.
		if (this.batch.push(chunk) === 1) process.nextTick(() => this.flush());
		done();
	}

	override _final(done: (err?: Error) => void) {
		this.flush();
		this.push(null);
		done();
	}

	override _destroy(err: Error | null, done: (err?: Error | null) => void) {
		this.thread.detach(this);
		done(err);
	}

	private flush() {
		if (this.batch.length === 0) return;
		const bytes = new Uint8Array(Buffer.concat(this.batch));
		this.batch = [];
		this.thread.send(this.id, bytes);
	}

	answer(bytes: Uint8Array) {
		this.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
	}
}

class Thread {
	private current: ThreadStream | undefined;
	private connections = 0;
	private closing = false;
	private closed: (() => void) | undefined;

	constructor(private readonly worker: Worker) {
		worker.on('message', (m: FromWorker) => {
			if (m.type === 'bytes' && m.id === this.current?.id) this.current.answer(m.bytes);
			else if (m.type === 'closed') this.closed?.();
			else if (m.type === 'broken') this.lost(m);
		});
		worker.on('error', (err) => this.lost(err as { name?: string; code?: string }));
		worker.on('exit', () => {
			if (!this.closing) this.lost({ name: 'ThreadEnded' });
			this.closed?.();
		});
	}

	attach(stream: ThreadStream) {
		stream.id = ++this.connections;
		this.current = stream;
		this.worker.postMessage({ type: 'connect', id: stream.id });
	}
	detach(stream: ThreadStream) {
		if (this.current === stream) this.current = undefined;
	}
	send(id: number, bytes: Uint8Array) {
		this.worker.postMessage({ type: 'bytes', id, bytes }, [bytes.buffer as ArrayBuffer]);
	}

	/**
	 * The embedded database stopped under the portal (its WebAssembly ended, the thread died): no
	 * later write could be kept, so the portal ends rather than answer every page with an error,
	 * and its supervisor or the operator starts it again on the same folder.
	 */
	private lost(err: { name?: string; code?: string }) {
		if (this.closing) return;
		this.closing = true;
		logError(
			'database',
			'the embedded database stopped, so the portal ends',
			new EmbeddedDatabaseError('stopped', err)
		);
		process.exit(1);
	}

	async close() {
		if (this.closing) return;
		this.closing = true;
		await new Promise<void>((resolve) => {
			this.closed = resolve;
			this.worker.postMessage({ type: 'close' });
		});
		await this.worker.terminate();
	}
}

/** What ended the embedded database or kept it from opening: the thread's error, by code or name. */
export class EmbeddedDatabaseError extends Error {
	readonly code: string | undefined;
	constructor(what: 'stopped' | 'could not be opened', err: { name?: string; code?: string }) {
		super(`the embedded database ${what}`);
		this.name = 'EmbeddedDatabaseError';
		this.code = err.code ?? err.name;
	}
}

export interface EmbeddedThread {
	pool: pg.Pool;
	close(): Promise<void>;
}

/** A worker with PGlite open on `dir`, or the reason it could not open, by code. */
async function openWorker(dir: string, startParams: string[]): Promise<Worker> {
	const { WORKER_URL, ROLE } = await import('./embedded-worker.js');
	const worker = new Worker(new URL(WORKER_URL), {
		workerData: { role: ROLE, dir, startParams },
		// The thread only moves bytes between pg and PGlite's WebAssembly memory, whose garbage is
		// short-lived: a small young generation keeps its heap about 30 MB smaller after the
		// benchmark's load, at no cost in requests/s (tests/bench/NOTES.md §8).
		resourceLimits: { maxYoungGenerationSizeMb: 4 }
	});
	const first = await new Promise<FromWorker>((resolve) => {
		worker.once('message', resolve);
		worker.once('error', (err: Error & { code?: string }) =>
			resolve({ type: 'failed', name: err.name, code: err.code })
		);
		worker.once('exit', () => resolve({ type: 'failed', name: 'ThreadEnded' }));
	});
	if (first.type !== 'ready') {
		await worker.terminate();
		throw new EmbeddedDatabaseError('could not be opened', 'name' in first ? first : {});
	}
	return worker;
}

/** Starts PGlite on `dir` in a worker, and a pool of one pg connection to it. */
export async function startEmbedded(dir: string, startParams: string[]): Promise<EmbeddedThread> {
	// Creating the database (PostgreSQL's initdb, on a folder without one) grows PGlite's
	// WebAssembly memory to about 800 MB of the process, and WebAssembly memory never shrinks
	// while its thread lives. So a new folder is created by a thread of its own that then ends;
	// the portal's thread opens what it made, at the size an existing folder takes (about 260 MB).
	if (!existsSync(join(dir, 'PG_VERSION')))
		await new Thread(await openWorker(dir, startParams)).close();
	const thread = new Thread(await openWorker(dir, startParams));
	const pool = new pg.Pool({
		max: 1,
		// PGlite's one user and database; pg would otherwise send the system's user name, or none.
		user: 'postgres',
		database: 'postgres',
		// The one connection stays for the process's life: PGlite's session is the database's.
		idleTimeoutMillis: 0,
		stream: () => new ThreadStream(thread)
	});
	return {
		pool,
		close: async () => {
			await pool.end();
			await thread.close();
		}
	};
}
