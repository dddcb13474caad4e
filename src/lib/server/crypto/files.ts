import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes a private file (mode 0600) unless it already exists. Two processes starting together
 * agree on one file: each writes a temporary file and hard-links it into place, which fails for
 * the second (and a reader never sees a half-written file). Returns false when it was already there.
 */
export function createFileOnce(path: string, contents: string | Uint8Array): boolean {
	mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
	const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
	writeFileSync(temp, contents, { mode: 0o600, flag: 'wx' });
	try {
		linkSync(temp, path);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		return false;
	} finally {
		unlinkSync(temp);
	}
}
