import {
	accessSync,
	chmodSync,
	constants,
	existsSync,
	lstatSync,
	mkdirSync,
	readdirSync,
	statSync
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '$lib/server/config/config';

const CANNOT: Record<string, string> = {
	ENOTDIR: 'has a file where a folder should be, in its path',
	ENOENT: 'cannot be made there',
	EACCES: "cannot be made or written by this process's user",
	EPERM: "cannot be made or written by this process's user",
	EROFS: 'is on a read-only file system'
};

/**
 * Makes the folder and its missing parents one at a time. Node's recursive mkdir never returns
 * under some parents (DATA_DIR=/proc/x kept the start waiting for ever, on Node 20): a plain
 * mkdir there fails with ENOENT, which is said.
 */
function makeFolder(dir: string): void {
	const missing: string[] = [];
	for (let at = dir; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
	for (const path of missing) {
		try {
			mkdirSync(path, { mode: 0o700 });
		} catch (err) {
			// Another process starting beside this one made it first.
			if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(path).isDirectory()) {
				throw err;
			}
		}
	}
}

/** The data folder, made if it is missing and checked writable; a problem in our words. */
function ensureFolder(dir: string): void {
	const path = resolve(dir);
	if (existsSync(path) && !statSync(path).isDirectory()) {
		throw new ConfigError([`DATA_DIR: ${path} is a file, not a folder (ENOTDIR)`]);
	}
	try {
		makeFolder(path);
		accessSync(path, constants.W_OK | constants.X_OK);
	} catch (err) {
		const code = (err as NodeJS.ErrnoException).code ?? '';
		const words = CANNOT[code] ?? 'cannot be made or used';
		throw new ConfigError([`DATA_DIR: ${path} ${words}${code ? ` (${code})` : ''}`]);
	}
}

/**
 * The data folder holds the embedded database (PGlite writes its files with the process's umask,
 * so 0666 under a permissive one) and, on embedded defaults, the generated keys: only the
 * portal's own user may read any of it. From here on every file the process creates is private
 * (umask 077), and what an earlier version left readable is tightened: folders 0700, files 0600.
 */
export function secureDataDir(dir: string, { walk = true } = {}): void {
	try {
		process.umask(0o077);
	} catch {
		// A worker thread cannot set the umask; the walk below still tightens what exists.
	}
	ensureFolder(dir);
	if (walk) tighten(dir);
}

function tighten(path: string): void {
	const stat = lstatSync(path);
	// A symbolic link is not followed: what it points at is not ours to change.
	if (stat.isSymbolicLink()) return;
	if (stat.isDirectory()) {
		if ((stat.mode & 0o777) !== 0o700) chmodSync(path, 0o700);
		for (const entry of readdirSync(path)) tighten(join(path, entry));
	} else if ((stat.mode & 0o777) !== 0o600) {
		chmodSync(path, 0o600);
	}
}
