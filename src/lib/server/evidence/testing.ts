import { generateSealP12, readP12 } from './p12';
import type { SealKey } from './seal-key';

let key: SealKey | undefined;

/**
 * A self-signed seal for tests that build an AppContext by hand: RSA 2048, generated on first use
 * and once per test file (a test-only cache, never used by the running portal). Read it lazily
 * (`seal: async () => testSealKey()`) so tests that seal nothing never pay for the key.
 */
export function testSealKey(): SealKey {
	key ??= {
		...readP12(generateSealP12(new Date(), undefined, undefined, 2048), ''),
		source: 'generated'
	};
	return key;
}
