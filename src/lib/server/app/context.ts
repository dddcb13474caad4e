import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { ConfigError, parseConfig, type Config } from '$lib/server/config/config';
import { openDatabase, type Database, type Db } from '$lib/server/db';
import { checkEncryptionKey, KEY_REFUSED } from '$lib/server/crypto/key-check';
import { loadOrCreateKey } from '$lib/server/crypto/secretbox';
import type { SealKey } from '$lib/server/evidence/seal-key';
import { onboardingClientFor, type OnboardingClient } from '$lib/server/onboarding';
import { upstreamCacheFor, type UpstreamCache } from '$lib/server/onboarding/cache';
import { createSandbox } from '$lib/server/sandbox';
import { sandboxSsnKey } from '$lib/server/sandbox/ssn';
import { seedDemoRep } from '$lib/server/reps/demo';
import { secureDataDir } from './datadir';

/**
 * What every request handler needs: built once at start, never mutated per request (but for what
 * `upstreamCache` holds: the one bounded cache, see onboarding/cache.ts).
 */
export interface AppContext {
	config: Config;
	database: Database;
	db: Db;
	onboarding: OnboardingClient;
	upstreamCache: UpstreamCache;
	encryptionKey: Buffer;
	/** The key that seals certificates and signed copies, opened on first use. */
	seal: () => Promise<SealKey>;
	operatorApiKey: string | undefined;
	sandbox: ReturnType<typeof createSandbox> | undefined;
}

let current: AppContext | undefined;

export function app(): AppContext {
	if (!current) throw new Error('The application has not been started (hooks init did not run).');
	return current;
}

/** A secret read from the environment or, on embedded defaults, generated into the data folder. */
function operatorKey(config: Config): string | undefined {
	if (config.OPERATOR_API_KEY) return config.OPERATOR_API_KEY;
	if (config.DATABASE_URL) return undefined;
	const file = resolve(config.DATA_DIR, 'operator-api-key');
	if (existsSync(file)) return readFileSync(file, 'utf8').trim();
	const key = randomBytes(32).toString('base64url');
	writeFileSync(file, key + '\n', { mode: 0o600 });
	return key;
}

/**
 * The SSN key, in this order: PORTAL_ENCRYPTION_KEY; the file PORTAL_ENCRYPTION_KEY_FILE names
 * (kept apart from the data and its backups; generated there on first start on embedded
 * defaults); on embedded defaults only, DATA_DIR/encryption.key, generated on first start.
 */
export function encryptionKeyOf(config: Config): Buffer {
	if (config.PORTAL_ENCRYPTION_KEY) return Buffer.from(config.PORTAL_ENCRYPTION_KEY, 'base64');
	const file = config.PORTAL_ENCRYPTION_KEY_FILE;
	if (config.DATABASE_URL) {
		// Several instances share one database: a key generated on one machine would leave the
		// others unable to read what it encrypted.
		if (!file) {
			throw new ConfigError([
				'PORTAL_ENCRYPTION_KEY or PORTAL_ENCRYPTION_KEY_FILE: required when DATABASE_URL is set (openssl rand -base64 32)'
			]);
		}
		if (!existsSync(file)) {
			throw new ConfigError([`PORTAL_ENCRYPTION_KEY_FILE: ${file} does not exist`]);
		}
	}
	const path = keyFileOf(config)!;
	const source = keySourceOf(config);
	let key: Buffer;
	try {
		key = loadOrCreateKey(dirname(path), basename(path));
	} catch (err) {
		throw new ConfigError([`${source}: ${keyFileProblem(err)}`]);
	}
	warnIfShared(path, source);
	return key;
}

/** Why a key file could not be used, in our words (a start said only "Error" before). */
function keyFileProblem(err: unknown): string {
	switch ((err as NodeJS.ErrnoException).code) {
		case undefined:
			// readKey's own refusal: read, but not a key.
			return 'does not hold a key: it must be 32 random bytes in base64, one line (openssl rand -base64 32)';
		case 'EISDIR':
			return 'is a folder: give the key file itself';
		case 'EACCES':
		case 'EPERM':
			return 'this process may not read it (or may not create it there): check its owner and mode';
		case 'ENOTDIR':
			return 'part of its path is a file, not a folder';
		default:
			return `could not be read or created (${(err as NodeJS.ErrnoException).code})`;
	}
}

/**
 * A key file other users of the machine may read is a copy of the key given to each of them (the
 * seal's bundle too: a copy is then as safe as its passphrase): said at start (the portal makes
 * its own files 0600; one an operator made may not be).
 */
function warnIfShared(path: string, source: string) {
	if (process.platform === 'win32') return;
	const mode = statSync(path).mode & 0o777;
	if ((mode & 0o077) === 0) return;
	console.warn(
		`[start] ${source}: other users of this machine may read it (mode ${mode.toString(8).padStart(4, '0')}). Let only the portal's user read it: chmod 600 ${path} (a mounted secret: mode 0400)`
	);
}

/** The file `encryptionKeyOf` reads the key from, if it reads one. */
function keyFileOf(config: Config): string | undefined {
	if (config.PORTAL_ENCRYPTION_KEY) return undefined;
	return resolve(config.PORTAL_ENCRYPTION_KEY_FILE ?? resolve(config.DATA_DIR, 'encryption.key'));
}

/** Where `encryptionKeyOf` reads the key from, in the words of the setting that chose it. */
function keySourceOf(config: Config): string {
	const file = keyFileOf(config);
	if (!file) return 'PORTAL_ENCRYPTION_KEY';
	if (config.PORTAL_ENCRYPTION_KEY_FILE) return `PORTAL_ENCRYPTION_KEY_FILE (${file})`;
	return `the encryption key in the data folder (${file})`;
}

/**
 * Refuses a start under a key the database's secrets were not written with. `generated` is the
 * key file this start made (the old one lost), if it made one: it is removed again, since left
 * behind it would pass for the real key in the next backup.
 */
async function checkKey(
	config: Config,
	database: Database,
	key: Buffer,
	generated: string | undefined
) {
	const source = keySourceOf(config);
	try {
		await checkEncryptionKey(database.db, key, source);
	} catch (err) {
		await database.close();
		if (!(generated && err instanceof ConfigError)) throw err;
		rmSync(generated, { force: true });
		// The Security notes send the key out of the data folder: a start that forgot the setting
		// for it looks for it in the data folder, and finds none.
		const moved = config.PORTAL_ENCRYPTION_KEY_FILE
			? ''
			: ' If you moved it out of the data folder (as the Security notes advise), set PORTAL_ENCRYPTION_KEY_FILE to where it is now.';
		throw new ConfigError(
			[
				`${source}: missing, while the database holds data encrypted under a key. Put back the key file it was written with: a new key cannot read that data (the one this start made has been removed).${moved}`
			],
			KEY_REFUSED
		);
	}
}

/**
 * The seal is needed only for a PDF, and opening it is the most expensive part of a start
 * (node-forge decrypts the PKCS#12 in JavaScript, and its modules, pdf-lib's and fontkit's load
 * with it: about 0.5 s of CPU). So it opens on first use, once. `init` opens the operator's own
 * bundle before the portal listens, and the generated one just after start-up, so that a bad
 * bundle stops the portal with our message. A missing file is refused now, and one others may
 * read is said now.
 */
function sealOpener(config: Config, db: Db): () => Promise<SealKey> {
	if (config.SEAL_P12_FILE) {
		const bundle = resolve(config.SEAL_P12_FILE);
		if (!existsSync(bundle)) throw new ConfigError([`SEAL_P12_FILE: ${bundle} does not exist`]);
		warnIfShared(bundle, `SEAL_P12_FILE (${bundle})`);
	}
	let opened: Promise<SealKey> | undefined;
	return () =>
		(opened ??= import('$lib/server/evidence/seal-key').then(({ openSealKey }) =>
			openSealKey(config, db)
		));
}

/**
 * The settings check, with the problems `scripts/start.js` found first (adapter-node's settings,
 * which it would stop on before the portal's check): one list of every problem, in one start.
 * start.js hands them over in PORTAL_START_PROBLEMS, having taken those settings out of
 * adapter-node's way.
 */
function withStartProblems(env: Record<string, string | undefined>, check: () => Config): Config {
	let earlier: string[] = [];
	try {
		const parsed: unknown = JSON.parse(env.PORTAL_START_PROBLEMS ?? '[]');
		if (Array.isArray(parsed)) earlier = parsed.filter((p) => typeof p === 'string');
	} catch {
		// Not start.js's: nothing to add.
	}
	let config: Config;
	try {
		config = check();
	} catch (err) {
		if (err instanceof ConfigError && earlier.length) {
			throw new ConfigError([...earlier, ...err.problems]);
		}
		throw err;
	}
	if (earlier.length) throw new ConfigError(earlier);
	return config;
}

export async function startApp(
	env: Record<string, string | undefined>,
	opts: { devPort?: number } = {}
): Promise<AppContext> {
	if (current) return current;
	const config = withStartProblems(env, () => parseConfig(env, opts));
	secureDataDir(config.DATA_DIR, { walk: false });
	const keyFile = keyFileOf(config);
	const generated = keyFile && !existsSync(keyFile) ? keyFile : undefined;
	const encryptionKey = encryptionKeyOf(config);
	const database = await openDatabase({
		url: config.DATABASE_URL,
		dataDir: config.DATABASE_URL ? undefined : config.DATA_DIR
	});
	await checkKey(config, database, encryptionKey, generated);
	// PGlite unpacks a new database's files, and rewrites some on every start (pg_internal.init),
	// with modes of its own (0666), whatever the umask: the walk comes after it has opened.
	secureDataDir(config.DATA_DIR);
	const seal = sealOpener(config, database.db);
	const onboarding = onboardingClientFor(config);
	let sandbox: AppContext['sandbox'];
	if (config.sandbox) {
		sandbox = createSandbox({
			db: database.db,
			authHeader: config.ONBOARDING_AUTH_HEADER,
			authValue: config.ONBOARDING_AUTH_VALUE,
			timeZone: config.OFFICE_TIME_ZONE,
			ssnKey: sandboxSsnKey(encryptionKey)
		});
		await sandbox.seed();
		if (!config.DATABASE_URL) await seedDemoRep(database.db, config.DATA_DIR);
	}
	current = {
		config,
		database,
		db: database.db,
		onboarding,
		upstreamCache: upstreamCacheFor(config),
		encryptionKey,
		seal,
		operatorApiKey: operatorKey(config),
		sandbox
	};
	return current;
}
