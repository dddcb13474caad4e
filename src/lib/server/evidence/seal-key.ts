import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, type Config } from '$lib/server/config/config';
import { createFileOnce } from '$lib/server/crypto/files';
import type { Tx } from '$lib/server/db';
import { sealCertificates } from '$lib/server/db/schema';
import { generateSealP12, readP12, type P12 } from './p12';

export { generateSealP12, readP12 };

/** The portal's document seal: a PKCS#12 bundle (key and certificate) and what it says. */
export interface SealKey extends P12 {
	/** Operator-provided (production) or generated into the data folder (embedded defaults). */
	source: 'operator' | 'generated';
}

const GENERATED_FILE = 'seal.p12';

/**
 * The operator's PKCS#12 (SEAL_P12_FILE, SEAL_P12_PASSPHRASE) or, unset, the one generated into
 * DATA_DIR on first start (mode 0600, an empty passphrase: the file's mode is its protection).
 */
export function loadSealKey(config: Config): SealKey {
	if (config.SEAL_P12_FILE) {
		const path = resolve(config.SEAL_P12_FILE);
		if (!existsSync(path)) throw new ConfigError([`SEAL_P12_FILE: ${path} does not exist`]);
		try {
			return {
				...readP12(readFileSync(path), config.SEAL_P12_PASSPHRASE ?? ''),
				source: 'operator'
			};
		} catch {
			// forge's message may quote bytes of the file: our words only.
			const passphrase = config.SEAL_P12_PASSPHRASE
				? 'with SEAL_P12_PASSPHRASE'
				: 'without a passphrase (SEAL_P12_PASSPHRASE is unset)';
			throw new ConfigError([
				`SEAL_P12_FILE: cannot be opened as a PKCS#12 bundle ${passphrase} (an RSA key and its certificate are needed)`
			]);
		}
	}
	const path = resolve(config.DATA_DIR, GENERATED_FILE);
	if (!existsSync(path)) createFileOnce(path, generateSealP12());
	return { ...readP12(readFileSync(path), ''), source: 'generated' };
}

/** Records the sealing certificate so `/verify` knows it, now and after the key changes. */
export async function registerSealCertificate(db: Tx, key: SealKey): Promise<void> {
	await db
		.insert(sealCertificates)
		.values({ sha256: key.certSha256, pem: key.certPem, subject: key.subject })
		.onConflictDoNothing();
}

/** The seal the running portal uses: opened, and its certificate recorded. */
export async function openSealKey(config: Config, db: Tx): Promise<SealKey> {
	const key = loadSealKey(config);
	await registerSealCertificate(db, key);
	return key;
}
