import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with node:crypto's scrypt at one of OWASP's equal-strength settings (Password
 * Storage Cheat Sheet): N=2^15, r=8, p=3, which needs 32 MiB per hash. The cheat sheet's first
 * setting (N=2^17, p=1) needs 128 MiB: libuv runs four hashes at once, so four reps signing in
 * together took the process from 390 MB to 780 MB (tests/bench/NOTES.md, section 6). The
 * parameters are stored with each hash, so older hashes stay readable; a rep's is made again at
 * today's cost when they next sign in (`isCurrentCost`).
 */
const LOG2_N = 15;
const R = 8;
const P = 3;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

/** scrypt's working memory is 128·r·(N+p+2) bytes; Node's default ceiling (32 MiB) is just below it. */
const maxmem = (n: number, r: number, p: number) => 128 * r * (n + p + 2) + 16 * 1024 * 1024;

function derive(password: string, salt: Buffer, opts: ScryptOptions, keyLength: number) {
	return new Promise<Buffer>((resolve, reject) =>
		scrypt(password.normalize('NFC'), salt, keyLength, opts, (err, key) =>
			err ? reject(err) : resolve(key)
		)
	);
}

export async function hashPassword(password: string): Promise<string> {
	const salt = randomBytes(SALT_BYTES);
	const N = 2 ** LOG2_N;
	const key = await derive(password, salt, { N, r: R, p: P, maxmem: maxmem(N, R, P) }, KEY_BYTES);
	return ['scrypt', LOG2_N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

interface Parsed {
	N: number;
	r: number;
	p: number;
	salt: Buffer;
	key: Buffer;
}

function parse(stored: string): Parsed | undefined {
	const parts = stored.split('$');
	if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
	const [log2n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
	// Bounds keep a tampered row from asking for gigabytes of memory.
	if (![log2n, r, p].every(Number.isInteger) || log2n < 10 || log2n > 22 || r < 1 || r > 32)
		return undefined;
	if (p < 1 || p > 16) return undefined;
	const salt = Buffer.from(parts[4]!, 'base64');
	const key = Buffer.from(parts[5]!, 'base64');
	if (salt.length < 16 || key.length < 16) return undefined;
	return { N: 2 ** log2n, r, p, salt, key };
}

/**
 * Whether a stored hash was made with today's parameters. Any other should be made again: a
 * weaker one for its strength, and any one because the dummy hash an unknown email is checked
 * against has today's, so only a hash like it takes as long to check.
 */
export function isCurrentCost(stored: string): boolean {
	const p = parse(stored);
	return !!p && p.N === 2 ** LOG2_N && p.r === R && p.p === P;
}

/** Checks a password against a stored hash in constant time; false for any malformed hash. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
	const p = parse(stored);
	if (!p) return false;
	const key = await derive(
		password,
		p.salt,
		{ N: p.N, r: p.r, p: p.p, maxmem: maxmem(p.N, p.r, p.p) },
		p.key.length
	);
	return timingSafeEqual(key, p.key);
}

/**
 * A hash of a random password nobody knows, at today's cost. Checked against when the email is
 * unknown or the account disabled, so that a wrong email takes as long as a wrong password and the
 * time to answer does not tell which accounts exist.
 */
export const DUMMY_HASH =
	'scrypt$15$8$3$lxBsx5c6M2f3B8JMkHSh6g==$Yy7oQsQbz8Rr5I7EuwzHII12JkwQwmsBPSeR2mWj4LM=';
