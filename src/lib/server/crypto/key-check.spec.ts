import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '$lib/server/config/config';
import { openDatabase, openMemoryDatabase, type Database } from '$lib/server/db';
import { keyChecks } from '$lib/server/db/schema';
import { enqueueMail } from '$lib/server/mail/outbox';
import { TEST_DATABASE_URL, throwawayDatabase } from '$lib/server/testing/postgres';
import { checkEncryptionKey } from './key-check';

const SOURCE = 'PORTAL_ENCRYPTION_KEY_FILE (/keys/portal.key)';

let open: Database[] = [];
afterEach(async () => {
	await Promise.all(open.map((d) => d.close()));
	open = [];
});
const memory = async () => {
	const database = await openMemoryDatabase();
	open.push(database);
	return database.db;
};

async function refusal(check: Promise<void>): Promise<string> {
	const err = await check.then(
		() => undefined,
		(e: unknown) => e
	);
	expect(err).toBeInstanceOf(ConfigError);
	return (err as ConfigError).message;
}

describe('the encryption key check', () => {
	it('is written on first use, passes the same key, and refuses another in our words', async () => {
		const db = await memory();
		const key = randomBytes(32);
		await checkEncryptionKey(db, key, SOURCE);
		const [row] = await db.select().from(keyChecks);
		expect(row?.name).toBe('encryption');
		await checkEncryptionKey(db, key, SOURCE);
		expect(await db.select().from(keyChecks)).toHaveLength(1);

		const message = await refusal(checkEncryptionKey(db, randomBytes(32), SOURCE));
		expect(message).toContain(
			`${SOURCE}: this key does not open what the database holds, which was encrypted under another key.`
		);
		expect(message).not.toContain('Unsupported state');
		// The refusal leaves the check as it was: the right key still starts.
		await checkEncryptionKey(db, key, SOURCE);
	});

	it('on the first start after an upgrade, refuses a key that does not open what is already held', async () => {
		const db = await memory();
		const key = randomBytes(32);
		const mail = { kind: 'link' as const, officeId: 1207, applicationId: 50001 };
		await enqueueMail(db, key, {
			...mail,
			to: 'a@example.com',
			subject: 's',
			text: 't',
			html: 'h'
		});

		await refusal(checkEncryptionKey(db, randomBytes(32), SOURCE));
		expect(await db.select().from(keyChecks)).toEqual([]);
		await checkEncryptionKey(db, key, SOURCE);
		expect(await db.select().from(keyChecks)).toHaveLength(1);
	});

	it.runIf(TEST_DATABASE_URL)(
		'two instances starting at once on one PostgreSQL server with different keys: one starts',
		async () => {
			const server = await throwawayDatabase(TEST_DATABASE_URL!);
			try {
				const pools = await Promise.all([1, 2].map(() => openDatabase({ url: server.url })));
				open.push(...pools);
				const results = await Promise.allSettled(
					pools.map((p) => checkEncryptionKey(p.db, randomBytes(32), SOURCE))
				);
				expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
				const rejected = results.find((r) => r.status === 'rejected');
				expect((rejected as PromiseRejectedResult).reason).toBeInstanceOf(ConfigError);
			} finally {
				await Promise.all(open.map((d) => d.close()));
				open = [];
				await server.drop();
			}
		}
	);
});
