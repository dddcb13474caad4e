import { createHash } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { Tx } from '$lib/server/db';
import { sanitizedHtml } from '$lib/server/db/schema';
import { SANITIZER_VERSION, type Sanitized } from './version';
import { sanitizeMany } from './thread';

/** The cache key: the raw HTML under this sanitizer version (see SANITIZER_VERSION). */
export function rawHash(raw: string): string {
	return createHash('sha256')
		.update(SANITIZER_VERSION + raw, 'utf8')
		.digest('hex');
}

/**
 * Sanitizes many sections, each at most once across all instances: one SELECT for the batch,
 * DOMPurify only on a miss (in the sanitizer's thread, see thread.ts), and the result stored for
 * everyone. A race between instances is harmless: sanitizing is deterministic, so whichever
 * insert wins holds the same row.
 */
export async function sanitizeAllCached(db: Tx, raws: readonly string[]): Promise<Sanitized[]> {
	const keys = raws.map(rawHash);
	const unique = [...new Set(keys)];
	const found = new Map<string, Sanitized>();
	if (unique.length > 0) {
		const rows = await db
			.select({
				rawHash: sanitizedHtml.rawHash,
				html: sanitizedHtml.html,
				sha256: sanitizedHtml.sha256
			})
			.from(sanitizedHtml)
			.where(inArray(sanitizedHtml.rawHash, unique));
		for (const row of rows) found.set(row.rawHash, { html: row.html, sha256: row.sha256 });
	}
	const missing = unique.filter((key) => !found.has(key));
	const results = await sanitizeMany(missing.map((key) => raws[keys.indexOf(key)] as string));
	const fresh = missing.map((rawHash, i) => ({ rawHash, ...(results[i] as Sanitized) }));
	for (const f of fresh) found.set(f.rawHash, { html: f.html, sha256: f.sha256 });
	if (fresh.length > 0) {
		await db.insert(sanitizedHtml).values(fresh).onConflictDoNothing();
	}
	return keys.map((key) => found.get(key) as Sanitized);
}

/** One section; see sanitizeAllCached. */
export async function sanitizeCached(db: Tx, raw: string): Promise<Sanitized> {
	const [result] = await sanitizeAllCached(db, [raw]);
	return result as Sanitized;
}
