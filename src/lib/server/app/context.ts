import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, parseConfig, type Config } from '$lib/server/config/config';
import { openDatabase, type Database, type Db } from '$lib/server/db';
import { loadOrCreateKey } from '$lib/server/crypto/secretbox';
import { createOnboardingClient, type OnboardingClient } from '$lib/server/onboarding';
import { createSandbox } from '$lib/server/sandbox';
import { seedDemoRep } from '$lib/server/reps/demo';

/** What every request handler needs: built once at start, never mutated per request. */
export interface AppContext {
	config: Config;
	database: Database;
	db: Db;
	onboarding: OnboardingClient;
	encryptionKey: Buffer;
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

export async function startApp(
	env: Record<string, string | undefined>,
	opts: { devPort?: number } = {}
): Promise<AppContext> {
	if (current) return current;
	const config = parseConfig(env, opts);
	if (config.DATABASE_URL && !config.PORTAL_ENCRYPTION_KEY) {
		// Several instances share one database: a key generated into one machine's data folder
		// would make the others unable to read what it encrypted.
		throw new ConfigError([
			'PORTAL_ENCRYPTION_KEY: required when DATABASE_URL is set (openssl rand -base64 32)'
		]);
	}
	mkdirSync(config.DATA_DIR, { recursive: true });
	const database = await openDatabase({
		url: config.DATABASE_URL,
		dataDir: config.DATABASE_URL ? undefined : config.DATA_DIR
	});
	const encryptionKey = config.PORTAL_ENCRYPTION_KEY
		? Buffer.from(config.PORTAL_ENCRYPTION_KEY, 'base64')
		: loadOrCreateKey(config.DATA_DIR, 'encryption.key');
	const onboarding = createOnboardingClient({
		baseUrl: config.onboardingBaseUrl,
		authHeader: config.ONBOARDING_AUTH_HEADER,
		authValue: config.ONBOARDING_AUTH_VALUE,
		timeoutMs: config.ONBOARDING_TIMEOUT_MS
	});
	let sandbox: AppContext['sandbox'];
	if (config.sandbox) {
		sandbox = createSandbox({
			db: database.db,
			authHeader: config.ONBOARDING_AUTH_HEADER,
			authValue: config.ONBOARDING_AUTH_VALUE
		});
		await sandbox.seed();
		if (!config.DATABASE_URL) await seedDemoRep(database.db, config.DATA_DIR);
	}
	current = {
		config,
		database,
		db: database.db,
		onboarding,
		encryptionKey,
		operatorApiKey: operatorKey(config),
		sandbox
	};
	return current;
}
