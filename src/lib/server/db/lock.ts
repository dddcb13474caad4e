import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';

/**
 * PGlite is PostgreSQL compiled to WebAssembly, running inside one process: two processes that
 * open the same folder each believe they own it, and the second corrupts what the first writes.
 * So whoever opens the embedded database (the portal, `npm run reps`) first takes this lock file,
 * created atomically (O_EXCL); a holder that is no longer running leaves a stale file, which the
 * next opener replaces. A PostgreSQL server needs none of this and takes no lock.
 */

interface Holder {
	pid: number;
	host: string;
	since: string;
	what: string;
}

export class DataDirBusyError extends Error {
	constructor(
		readonly file: string,
		readonly holder: Holder
	) {
		super(
			`The embedded database in ${file.replace(/[/\\]db\.lock$/, '')} is in use by ${holder.what} ` +
				`(process ${holder.pid}, since ${holder.since}). PGlite serves one process at a time: ` +
				`stop it and try again, or use DATABASE_URL (a PostgreSQL server), which any number of ` +
				`processes share. If nothing is running, delete ${file}.`
		);
		this.name = 'DataDirBusyError';
	}
}

/**
 * The lock files this process holds. Deliberate module state, at most one entry per data folder:
 * a container's process is often pid 1 in every incarnation, so a file naming our own pid is ours
 * only if this set says so; otherwise a crashed predecessor left it.
 */
const held = new Set<string>();

function running(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (err) {
		// EPERM: it exists but belongs to someone else.
		return (err as NodeJS.ErrnoException).code === 'EPERM';
	}
}

function readHolder(file: string): Holder | undefined {
	try {
		const h = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
		if (typeof h.pid === 'number' && typeof h.host === 'string') {
			return { pid: h.pid, host: h.host, since: String(h.since), what: String(h.what) };
		}
	} catch {
		/* half-written or unreadable: treated as stale */
	}
	return undefined;
}

function isLive(holder: Holder, me: Holder, file: string): boolean {
	// Another host sharing the folder (a network drive) cannot be probed: assume it runs.
	if (holder.host !== me.host) return true;
	if (holder.pid === me.pid) return held.has(file);
	return running(holder.pid);
}

/** Takes the data folder's lock for this process; the returned function gives it back. */
export function lockDataDir(dataDir: string, what: string): () => void {
	const file = resolve(dataDir, 'db.lock');
	const me: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), what };
	for (let attempt = 0; attempt < 2; attempt++) {
		let fd: number;
		try {
			fd = openSync(file, 'wx', 0o600);
		} catch (err) {
			if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
			const holder = readHolder(file);
			if (!holder && Date.now() - statSync(file).mtimeMs < 5_000) {
				// Just created by another opener that has not written its name yet.
				throw new DataDirBusyError(file, { ...me, pid: 0, what: 'another process' });
			}
			if (holder && isLive(holder, me, file)) throw new DataDirBusyError(file, holder);
			unlinkSync(file);
			continue;
		}
		writeSync(fd, JSON.stringify(me));
		closeSync(fd);
		held.add(file);
		return () => {
			held.delete(file);
			if (readHolder(file)?.pid === me.pid) unlinkSync(file);
		};
	}
	throw new DataDirBusyError(file, readHolder(file) ?? me);
}
