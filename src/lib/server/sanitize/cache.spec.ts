import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openMemoryDatabase, type Database } from '$lib/server/db';
import { sanitizedHtml } from '$lib/server/db/schema';
import { rawHash, sanitizeAllCached, sanitizeCached } from './cache';
import { sanitizeHtml } from './sanitize';
import { SANITIZER_VERSION } from './version';

// Count the real sanitizer's runs without changing what it does.
vi.mock('./sanitize', async (importOriginal) => {
	const actual = await importOriginal<typeof import('./sanitize')>();
	return { ...actual, sanitizeHtml: vi.fn(actual.sanitizeHtml) };
});

describe('sanitizeCached', () => {
	let database: Database;
	beforeAll(async () => {
		database = await openMemoryDatabase();
	});
	afterAll(() => database?.close());
	beforeEach(() => vi.mocked(sanitizeHtml).mockClear());

	it('sanitizes on a miss, stores the row, and serves the second call from the table', async () => {
		const raw = '<p onclick="x()">Fees apply</p>';
		const first = await sanitizeCached(database.db, raw);
		expect(first.html).toBe('<p>Fees apply</p>');
		expect(sanitizeHtml).toHaveBeenCalledTimes(1);

		const rows = await database.db
			.select()
			.from(sanitizedHtml)
			.where(eq(sanitizedHtml.rawHash, rawHash(raw)));
		expect(rows).toHaveLength(1);
		expect(rows[0]).toMatchObject({ html: first.html, sha256: first.sha256 });

		const second = await sanitizeCached(database.db, raw);
		expect(second).toEqual(first);
		expect(sanitizeHtml).toHaveBeenCalledTimes(1);
	});

	it('uses what the table holds (so another instance’s work is reused)', async () => {
		const raw = '<p>planted</p>';
		await database.db
			.insert(sanitizedHtml)
			.values({ rawHash: rawHash(raw), html: '<p>from the table</p>', sha256: 'f'.repeat(64) });
		expect((await sanitizeCached(database.db, raw)).html).toBe('<p>from the table</p>');
		expect(sanitizeHtml).not.toHaveBeenCalled();
	});

	it('handles a batch in order, sanitizing each new section once', async () => {
		const cached = '<p onclick="x()">Fees apply</p>';
		const raws = ['<h1>A</h1>', cached, '<b>C</b>', '<h1>A</h1>'];
		const results = await sanitizeAllCached(database.db, raws);
		expect(results.map((r) => r.html)).toEqual([
			'<h3>A</h3>',
			'<p>Fees apply</p>',
			'<b>C</b>',
			'<h3>A</h3>'
		]);
		expect(sanitizeHtml).toHaveBeenCalledTimes(2);
		expect(await sanitizeAllCached(database.db, [])).toEqual([]);
	});

	it('works inside a transaction', async () => {
		const result = await database.db.transaction((tx) => sanitizeCached(tx, '<i>tx</i>'));
		expect(result.html).toBe('<i>tx</i>');
	});

	it('keys on the sanitizer version as well as the raw HTML', () => {
		expect(rawHash('<p>x</p>')).toBe(
			createHash('sha256')
				.update(SANITIZER_VERSION + '<p>x</p>')
				.digest('hex')
		);
		expect(SANITIZER_VERSION).toContain('dompurify-3.');
		expect(rawHash('<p>x</p>')).not.toBe(rawHash('<p>y</p>'));
	});
});
