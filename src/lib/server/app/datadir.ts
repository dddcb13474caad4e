import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

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
	mkdirSync(dir, { recursive: true, mode: 0o700 });
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
