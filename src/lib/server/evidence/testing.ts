import { generateSealP12, readP12 } from './p12';
import type { SealKey } from './seal-key';

let key: SealKey | undefined;

/**
 * A self-signed seal for tests that build an AppContext by hand. Generated once per test file
 * (an RSA key takes a moment); a test-only cache, never used by the running portal.
 */
export function testSealKey(): SealKey {
	key ??= { ...readP12(generateSealP12(), ''), source: 'generated' };
	return key;
}
