import { createHmac, hkdfSync } from 'node:crypto';

/**
 * The key of the sandbox's SSN digests: derived from the portal's encryption key, so it is kept
 * where that key is (apart from the database) and is the same on every start and instance.
 */
export function sandboxSsnKey(encryptionKey: Buffer): Buffer {
	return Buffer.from(
		hkdfSync('sha256', encryptionKey, Buffer.alloc(0), 'sandbox: SSN digests', 32)
	);
}

const digitsOf = (ssn: string) => ssn.replace(/\D/g, '');

/**
 * What the sandbox keeps of a signer's SSN: an HMAC-SHA256 (hex) of its digits under `key`, and
 * the last four. The rule is that an SSN someone typed never appears in the database in plain
 * text; a plain SHA-256 of nine digits, four of them kept beside it, is undone in a tenth of a
 * second (10^5 guesses), so the digest is keyed.
 */
export function ssnDigest(ssn: string, key: Buffer): { hmac: string; last4: string } {
	const digits = digitsOf(ssn);
	return { hmac: createHmac('sha256', key).update(digits).digest('hex'), last4: digits.slice(-4) };
}

/** The last four digits of an SSN: all the sandbox keeps of an owner's (the PDF shows them). */
export const ssnLast4 = (ssn: string) => digitsOf(ssn).slice(-4);
