import { createHash } from 'node:crypto';
import type { SandboxSsnDigest } from '../db/schema';

/**
 * What the sandbox keeps of an SSN: the SHA-256 (hex) of its digits and the last four. The rule
 * is that an SSN someone typed never appears in the database in plain text.
 */
export function ssnDigest(ssn: string): SandboxSsnDigest {
	const digits = ssn.replace(/\D/g, '');
	return { sha256: createHash('sha256').update(digits).digest('hex'), last4: digits.slice(-4) };
}
