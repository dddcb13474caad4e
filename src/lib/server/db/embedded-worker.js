import { isMainThread, parentPort, workerData } from 'node:worker_threads';

// The embedded database's thread (see thread.ts): PGlite on a data folder, answering the
// PostgreSQL wire protocol's messages that pg writes in the portal's thread. Plain JavaScript, so
// that a worker can start this file as it is: from a build (where it is a chunk of its own), from
// the dev server, from the unit tests and from `npm run reps` alike. Imported on the main thread
// it only tells where it is.

export const WORKER_URL = import.meta.url;
export const ROLE = 'portal-database';

if (!isMainThread && parentPort && workerData?.role === ROLE) await serve(parentPort, workerData);

/**
 * @param {import('node:worker_threads').MessagePort} port
 * @param {{ dir: string, startParams: string[] }} options
 */
async function serve(port, { dir, startParams }) {
	/** 'X': a client saying goodbye. PGlite's one session is the database's, so it is not passed. */
	const TERMINATE = 0x58;

	/** @param {unknown} err its name and code only: PGlite's messages can quote the folder's files */
	const named = (err) => {
		const e = /** @type {{ name?: string, code?: string } | undefined} */ (err);
		return { name: e?.name, code: e?.code };
	};

	/** @type {import('@electric-sql/pglite').PGlite} */
	let db;
	try {
		const { PGlite } = await import('@electric-sql/pglite');
		db = new PGlite(dir, { startParams });
		await db.waitReady;
	} catch (err) {
		port.postMessage({ type: 'failed', ...named(err) });
		return;
	}

	/** @type {Buffer} */
	let pending = Buffer.alloc(0);
	/** The connection whose messages are run: what an earlier one still sends is dropped. */
	let connection = 0;
	/** Whether the connection's first message, the startup message (it has no type byte), came. */
	let started = false;
	// One message at a time, in the order they came: the protocol is a conversation.
	let queue = Promise.resolve();
	/** @param {() => Promise<void>} task */
	const next = (task) =>
		(queue = queue.then(task).catch((err) => {
			port.postMessage({ type: 'broken', ...named(err) });
		}));

	port.on('message', (/** @type {{ type: string, id?: number, bytes?: Uint8Array }} */ m) => {
		if (m.type === 'connect') next(() => connect(m.id ?? 0));
		else if (m.type === 'bytes' && m.bytes) {
			const bytes = Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength);
			const id = m.id;
			next(() => (id === connection ? run(bytes) : Promise.resolve()));
		} else if (m.type === 'close')
			next(async () => {
				await db.close();
				port.postMessage({ type: 'closed' });
			});
	});
	port.postMessage({ type: 'ready' });

	/**
	 * A new connection starts clean: what an earlier one left in the session (half a message, an
	 * open transaction, its named statements, which pg would prepare again) goes.
	 * @param {number} id
	 */
	async function connect(id) {
		connection = id;
		pending = Buffer.alloc(0);
		started = false;
		if (db.isInTransaction()) await db.exec('ROLLBACK');
		await db.exec('DEALLOCATE ALL');
	}

	/**
	 * Runs every whole message received so far, and posts the answers back in one piece.
	 * @param {Buffer} bytes
	 */
	async function run(bytes) {
		pending = pending.length ? Buffer.concat([pending, bytes]) : bytes;
		/** @type {Uint8Array[]} */
		const out = [];
		/** @param {Uint8Array} data a view of PGlite's memory, which its next call reuses: copied */
		const onRawData = (data) => out.push(data.slice());
		/** @type {Buffer[]} the complete messages after the start-up one, run together */
		const typed = [];
		for (;;) {
			const head = started ? 5 : 4;
			if (pending.length < head) break;
			const length = started ? 1 + pending.readInt32BE(1) : pending.readInt32BE(0);
			if (pending.length < length) break;
			const message = pending.subarray(0, length);
			pending = pending.subarray(length);
			if (!started) {
				started = true;
				await db.execProtocolRawStream(new Uint8Array(message), { onRawData });
			} else if (message[0] !== TERMINATE) typed.push(message);
		}
		// A statement's parse, bind, describe, execute and sync in one call: PGlite's main loop
		// reads every message it is given, and one call instead of five took a prepared select
		// from about 105 to 89 µs of this thread.
		if (typed.length)
			await db.execProtocolRawStream(new Uint8Array(Buffer.concat(typed)), { onRawData });
		if (out.length === 0) return;
		const answer = new Uint8Array(Buffer.concat(out));
		port.postMessage({ type: 'bytes', id: connection, bytes: answer }, [answer.buffer]);
	}
}
