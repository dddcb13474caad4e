import {
	chmodSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	rmSync,
	statSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, parseConfig } from '$lib/server/config/config';
import { encryptionKeyOf, startApp } from './context';
import { secureDataDir } from './datadir';

/** A test that starts the embedded database (several times, some): seconds each, more on a busy machine. */
const STARTS = { timeout: 60_000 };

/** startApp keeps the context it made: a start of a module of its own, as a new process's. */
async function freshStart(env: Record<string, string>) {
	vi.resetModules();
	const { startApp: fresh } = await import('./context');
	return fresh(env);
}

let dir: string | undefined;
afterEach(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
	dir = undefined;
});
const scratch = () => (dir = mkdtempSync(join(tmpdir(), 'portal-data-')));

/** Every folder and file under `root` whose mode is not 0700 (folders) or 0600 (files). */
function loose(root: string): { wrong: string[]; files: number } {
	const wrong: string[] = [];
	let files = 0;
	const walk = (p: string) => {
		const st = statSync(p);
		const mode = st.mode & 0o777;
		if (st.isDirectory()) {
			if (mode !== 0o700) wrong.push(`${p} ${mode.toString(8)}`);
			for (const e of readdirSync(p)) walk(join(p, e));
		} else {
			files++;
			if (mode !== 0o600) wrong.push(`${p} ${mode.toString(8)}`);
		}
	};
	walk(root);
	return { wrong, files };
}

describe('the data folder', () => {
	it(
		'is private: folders 0700 and files 0600, under any umask and after an older install',
		STARTS,
		async () => {
			const before = process.umask(0);
			try {
				const dataDir = join(scratch(), 'data');
				// What an earlier version left behind: an open folder and a readable file.
				mkdirSync(dataDir, { mode: 0o755 });
				chmodSync(dataDir, 0o755);
				writeFileSync(join(dataDir, 'left-over'), 'x');
				chmodSync(join(dataDir, 'left-over'), 0o666);
				const ctx = await startApp({
					DATA_DIR: dataDir,
					ONBOARDING_BASE_URL: 'http://127.0.0.1:9'
				});
				try {
					// The database keeps writing files (WAL segments, relations) long after start.
					await ctx.db.execute(sql`create table filler (t text)`);
					await ctx.db.execute(
						sql`insert into filler select repeat('x', 500) from generate_series(1, 5000)`
					);
					await ctx.db.execute(sql`checkpoint`);
				} finally {
					await ctx.database.close();
				}
				const { wrong, files } = loose(dataDir);
				expect(files).toBeGreaterThan(50);
				expect(wrong).toEqual([]);
			} finally {
				process.umask(before);
			}
		}
	);
});

describe('a data folder restored without its encryption key', () => {
	it(
		'is refused, and a start without PORTAL_ENCRYPTION_KEY_FILE is told it may be what is missing',
		STARTS,
		async () => {
			const root = scratch();
			const dataDir = join(root, 'data');
			const env = { DATA_DIR: dataDir, ONBOARDING_BASE_URL: 'http://127.0.0.1:9' };
			const start = (more: Record<string, string> = {}) => freshStart({ ...env, ...more });
			const refusal = (more?: Record<string, string>) =>
				start(more).then(
					() => [],
					(err: unknown) => (err as ConfigError).problems
				);
			await (await start()).database.close();
			const key = join(dataDir, 'encryption.key');
			rmSync(key);
			expect(await refusal()).toEqual([
				`the encryption key in the data folder (${key}): missing, while the database holds data encrypted under a key. Put back the key file it was written with: a new key cannot read that data (the one this start made has been removed). If you moved it out of the data folder (as the Security notes advise), set PORTAL_ENCRYPTION_KEY_FILE to where it is now.`
			]);
			expect(existsSync(key)).toBe(false);
			// With the setting given, it is the file the setting names that is missing.
			const elsewhere = join(root, 'portal.key');
			const [named] = await refusal({ PORTAL_ENCRYPTION_KEY_FILE: elsewhere });
			expect(named).toMatch(/^PORTAL_ENCRYPTION_KEY_FILE \(.*\): missing, .*has been removed\)\.$/);
			expect(existsSync(elsewhere)).toBe(false);
		}
	);
});

describe('the seal’s bundle', () => {
	it(
		'is said at start to be readable by others when its file is, as the key file is',
		STARTS,
		async () => {
			const root = scratch();
			const bundle = join(root, 'seal.p12');
			// Opened on first use, after start: this start only finds it and reads its mode.
			writeFileSync(bundle, 'a bundle');
			chmodSync(bundle, 0o644);
			const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
			try {
				const ctx = await freshStart({
					DATA_DIR: join(root, 'data'),
					ONBOARDING_BASE_URL: 'http://127.0.0.1:9',
					SEAL_P12_FILE: bundle,
					SEAL_P12_PASSPHRASE: 'not read here'
				});
				await ctx.database.close();
				expect(warned.mock.calls.map((a) => a.join(' '))).toEqual([
					`[start] SEAL_P12_FILE (${bundle}): other users of this machine may read it (mode 0644). Let only the portal's user read it: chmod 600 ${bundle} (a mounted secret: mode 0400)`
				]);
			} finally {
				warned.mockRestore();
			}
		}
	);
});

describe('a data folder that cannot be one', () => {
	const refused = (dir: string) => {
		try {
			secureDataDir(dir);
		} catch (err) {
			expect(err).toBeInstanceOf(ConfigError);
			return (err as ConfigError).problems;
		}
		throw new Error(`${dir} was taken`);
	};

	it('is refused in our words: a file, a file in its path, a place no folder can be made', () => {
		const root = scratch();
		const file = join(root, 'a-file');
		writeFileSync(file, 'x');
		expect(refused(file)).toEqual([`DATA_DIR: ${file} is a file, not a folder (ENOTDIR)`]);
		expect(refused(join(file, 'data'))).toEqual([
			`DATA_DIR: ${join(file, 'data')} has a file where a folder should be, in its path (ENOTDIR)`
		]);
		// Node's recursive mkdir never returned here: the start waited for ever.
		if (process.platform === 'linux') {
			expect(refused('/proc/portal-data')).toEqual([
				'DATA_DIR: /proc/portal-data cannot be made there (ENOENT)'
			]);
		}
	});

	it('is made with its missing parents, each private', () => {
		const root = scratch();
		const dir = join(root, 'a', 'b', 'data');
		secureDataDir(dir);
		for (const p of [join(root, 'a'), join(root, 'a', 'b'), dir]) {
			expect(statSync(p).mode & 0o777).toBe(0o700);
		}
	});
});

describe('the encryption key', () => {
	const config = (env: Record<string, string>) =>
		parseConfig({ ONBOARDING_BASE_URL: 'http://127.0.0.1:9', ...env });

	it('can live outside the data folder: generated there once, 0600, then read back', () => {
		const root = scratch();
		const file = join(root, 'secrets', 'portal.key');
		const c = config({ DATA_DIR: join(root, 'data'), PORTAL_ENCRYPTION_KEY_FILE: file });
		const key = encryptionKeyOf(c);
		expect(key).toHaveLength(32);
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(encryptionKeyOf(c).equals(key)).toBe(true);
		expect(readdirSync(root)).not.toContain('data');
	});

	it('with a shared database, must be given: never generated on one instance', () => {
		const root = scratch();
		const shared = { DATA_DIR: join(root, 'data'), DATABASE_URL: 'postgres://x@127.0.0.1/x' };
		expect(() => encryptionKeyOf(config(shared))).toThrow(ConfigError);
		expect(() =>
			encryptionKeyOf(config({ ...shared, PORTAL_ENCRYPTION_KEY_FILE: join(root, 'none.key') }))
		).toThrow(ConfigError);
		writeFileSync(join(root, 'given.key'), Buffer.alloc(32, 7).toString('base64'));
		const key = encryptionKeyOf(
			config({ ...shared, PORTAL_ENCRYPTION_KEY_FILE: join(root, 'given.key') })
		);
		expect(key.equals(Buffer.alloc(32, 7))).toBe(true);
	});

	it('that cannot be used is named with its setting and why, not as a bare Error', () => {
		const root = scratch();
		const junk = join(root, 'junk.key');
		writeFileSync(junk, 'oops\n', { mode: 0o600 });
		const empty = join(root, 'empty.key');
		writeFileSync(empty, '', { mode: 0o600 });
		const refusal = (env: Record<string, string>) => {
			try {
				encryptionKeyOf(config({ DATA_DIR: join(root, 'data'), ...env }));
			} catch (err) {
				expect(err).toBeInstanceOf(ConfigError);
				return (err as ConfigError).problems;
			}
			throw new Error('the key was taken');
		};
		const notAKey =
			'does not hold a key: it must be 32 random bytes in base64, one line (openssl rand -base64 32)';
		expect(refusal({ PORTAL_ENCRYPTION_KEY_FILE: junk })).toEqual([
			`PORTAL_ENCRYPTION_KEY_FILE (${junk}): ${notAKey}`
		]);
		expect(refusal({ PORTAL_ENCRYPTION_KEY_FILE: empty })).toEqual([
			`PORTAL_ENCRYPTION_KEY_FILE (${empty}): ${notAKey}`
		]);
		expect(refusal({ PORTAL_ENCRYPTION_KEY_FILE: root })).toEqual([
			`PORTAL_ENCRYPTION_KEY_FILE (${root}): is a folder: give the key file itself`
		]);
		// The data folder's own, spoiled.
		mkdirSync(join(root, 'data'));
		writeFileSync(join(root, 'data', 'encryption.key'), 'not base64 at all', { mode: 0o600 });
		expect(refusal({})).toEqual([
			`the encryption key in the data folder (${join(root, 'data', 'encryption.key')}): ${notAKey}`
		]);
	});

	it('is taken one way only: the value and a file both set are refused', () => {
		expect(() =>
			config({
				PORTAL_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
				PORTAL_ENCRYPTION_KEY_FILE: '/run/secrets/portal-key'
			})
		).toThrow(
			'PORTAL_ENCRYPTION_KEY and PORTAL_ENCRYPTION_KEY_FILE: both are set; give the key one way only'
		);
	});

	it('is said at start to be readable by others when its file is, and not when it is private', () => {
		const root = scratch();
		const file = join(root, 'given.key');
		writeFileSync(file, Buffer.alloc(32, 7).toString('base64'));
		chmodSync(file, 0o644);
		const c = config({ DATA_DIR: join(root, 'data'), PORTAL_ENCRYPTION_KEY_FILE: file });
		const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
		try {
			encryptionKeyOf(c);
			expect(warned.mock.calls.map((a) => a.join(' '))).toEqual([
				`[start] PORTAL_ENCRYPTION_KEY_FILE (${file}): other users of this machine may read it (mode 0644). Let only the portal's user read it: chmod 600 ${file} (a mounted secret: mode 0400)`
			]);
			chmodSync(file, 0o600);
			encryptionKeyOf(c);
			expect(warned).toHaveBeenCalledTimes(1);
		} finally {
			warned.mockRestore();
		}
	});
});
