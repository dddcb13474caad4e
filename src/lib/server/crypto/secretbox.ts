import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFileOnce } from './files';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

function checkKey(key: Buffer): void {
	if (key.length !== KEY_BYTES) throw new Error(`secretbox: the key must be ${KEY_BYTES} bytes`);
}

/**
 * AES-256-GCM with a fresh random IV per message: `v1.<iv>.<tag>.<ciphertext>`, base64url.
 * The version prefix leaves room to change the scheme while old boxes are still readable.
 */
export function encrypt(key: Buffer, plaintext: string): string {
	checkKey(key);
	const iv = randomBytes(IV_BYTES);
	const cipher = createCipheriv('aes-256-gcm', key, iv);
	const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
	const tag = cipher.getAuthTag();
	return [VERSION, iv, tag, ciphertext]
		.map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
		.join('.');
}

/** Opens a box made by `encrypt`; throws on a wrong key or any change to the box. */
export function decrypt(key: Buffer, box: string): string {
	checkKey(key);
	const parts = box.split('.');
	if (parts.length !== 4 || parts[0] !== VERSION) throw new Error('secretbox: not a v1 box');
	const [iv, tag, ciphertext] = parts.slice(1).map((p) => Buffer.from(p, 'base64url'));
	if (!iv || iv.length !== IV_BYTES || !tag || tag.length !== TAG_BYTES || !ciphertext) {
		throw new Error('secretbox: malformed box');
	}
	const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
	decipher.setAuthTag(tag);
	// final() throws when the tag does not match: tampered, truncated or the wrong key.
	return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
}

function readKey(path: string): Buffer {
	const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
	if (key.length !== KEY_BYTES) throw new Error(`secretbox: ${path} does not hold a 32-byte key`);
	return key;
}

/**
 * The key in `<dataDir>/<fileName>` (base64), created on first use with mode 0600 so that a
 * fresh machine works without configuration; two processes starting together agree on one key.
 */
export function loadOrCreateKey(dataDir: string, fileName: string): Buffer {
	const path = join(dataDir, fileName);
	try {
		return readKey(path);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
	}
	createFileOnce(path, randomBytes(KEY_BYTES).toString('base64') + '\n');
	return readKey(path);
}
