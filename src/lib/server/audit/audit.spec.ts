import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMemoryDatabase, type Database } from '$lib/server/db';
import { auditEvents } from '$lib/server/db/schema';
import { appendAudit, GENESIS, hashEvent, listAudit, verifyAuditChain } from './audit';

const OFFICE = 1207;

describe('audit trail', () => {
	let database: Database;
	let nextApp = 50_000;
	beforeAll(async () => {
		database = await openMemoryDatabase();
	});
	afterAll(() => database?.close());

	/** A fresh application with `n` events. */
	async function chain(n: number): Promise<number> {
		const app = nextApp++;
		const sessionId = randomUUID();
		for (let i = 0; i < n; i++) {
			await appendAudit(database.db, {
				officeId: OFFICE,
				applicationId: app,
				type: i === 0 ? 'link.opened' : 'terms.shown',
				channel: 'link',
				ip: '203.0.113.7',
				userAgent: 'Mozilla/5.0 (test)',
				rep: 'R-17',
				sessionId,
				data: {
					step: i,
					sections: [{ key: 'fees', sha256: 'ab'.repeat(32) }],
					nested: { b: 1, a: 2 }
				}
			});
		}
		return app;
	}
	const where = (app: number, seq: number) =>
		and(
			eq(auditEvents.officeId, OFFICE),
			eq(auditEvents.applicationId, app),
			eq(auditEvents.seq, seq)
		);

	it('chains events per application and verifies them', async () => {
		const app = await chain(4);
		const events = await listAudit(database.db, OFFICE, app);
		expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
		expect(events[0]?.prevHash).toBe(GENESIS);
		for (let i = 1; i < events.length; i++) expect(events[i]?.prevHash).toBe(events[i - 1]?.hash);
		for (const e of events) expect(hashEvent(e)).toBe(e.hash);
		expect(await verifyAuditChain(database.db, OFFICE, app)).toEqual({
			ok: true,
			count: 4,
			head: events[3]?.hash
		});
		// Another application's chain is separate and starts again at 1.
		const other = await chain(1);
		expect((await listAudit(database.db, OFFICE, other))[0]?.seq).toBe(1);
	});

	it('keeps UTC time to the millisecond, and what was given', async () => {
		const app = nextApp++;
		const at = new Date('2025-03-04T05:06:07.089Z');
		const sessionId = randomUUID().toUpperCase();
		const e = await appendAudit(database.db, {
			officeId: OFFICE,
			applicationId: app,
			type: 'consent.given',
			at,
			sessionId,
			data: { when: at, skipped: undefined }
		});
		expect(e.at.toISOString()).toBe('2025-03-04T05:06:07.089Z');
		expect(e.sessionId).toBe(sessionId.toLowerCase());
		expect(e.data).toEqual({ when: '2025-03-04T05:06:07.089Z' });
		expect(e).toMatchObject({ channel: null, ip: null, userAgent: null, rep: null });
		expect((await verifyAuditChain(database.db, OFFICE, app)).ok).toBe(true);
	});

	it('detects an edited field', async () => {
		const app = await chain(3);
		await database.db
			.update(auditEvents)
			.set({ data: sql`jsonb_set(${auditEvents.data}, '{step}', '9')` })
			.where(where(app, 2));
		expect(await verifyAuditChain(database.db, OFFICE, app)).toMatchObject({
			ok: false,
			count: 3,
			brokenAt: 2,
			reason: 'the event does not match its hash'
		});

		const app2 = await chain(3);
		await database.db.update(auditEvents).set({ ip: '198.51.100.1' }).where(where(app2, 3));
		expect(await verifyAuditChain(database.db, OFFICE, app2)).toMatchObject({
			ok: false,
			brokenAt: 3
		});
	});

	it('detects a deleted event in the middle', async () => {
		const app = await chain(4);
		await database.db.delete(auditEvents).where(where(app, 2));
		expect(await verifyAuditChain(database.db, OFFICE, app)).toMatchObject({
			ok: false,
			count: 3,
			brokenAt: 2
		});
	});

	it('detects a deleted event even when the rest are renumbered', async () => {
		const app = await chain(4);
		await database.db.delete(auditEvents).where(where(app, 2));
		await database.db.update(auditEvents).set({ seq: 2 }).where(where(app, 3));
		await database.db.update(auditEvents).set({ seq: 3 }).where(where(app, 4));
		expect(await verifyAuditChain(database.db, OFFICE, app)).toMatchObject({
			ok: false,
			brokenAt: 2,
			reason: 'the link to the previous event is broken'
		});
	});

	it('detects reordered events', async () => {
		const app = await chain(4);
		await database.db.update(auditEvents).set({ seq: -2 }).where(where(app, 2));
		await database.db.update(auditEvents).set({ seq: 2 }).where(where(app, 3));
		await database.db.update(auditEvents).set({ seq: 3 }).where(where(app, -2));
		expect(await verifyAuditChain(database.db, OFFICE, app)).toMatchObject({
			ok: false,
			brokenAt: 2
		});
	});

	it('cannot see a deleted tail from the chain alone, but the head hash changes', async () => {
		// The certificate prints the head: a copy held by the signer or the operator shows the loss.
		const app = await chain(3);
		const before = await verifyAuditChain(database.db, OFFICE, app);
		await database.db.delete(auditEvents).where(where(app, 3));
		const after = await verifyAuditChain(database.db, OFFICE, app);
		expect(after).toMatchObject({ ok: true, count: 2 });
		expect(before.ok && after.ok && before.head !== after.head).toBe(true);
	});

	it('verifies an empty trail as ok, with the genesis head', async () => {
		expect(await verifyAuditChain(database.db, OFFICE, 1)).toEqual({
			ok: true,
			count: 0,
			head: GENESIS
		});
	});

	it('keeps a single linear chain under concurrent appends', async () => {
		const app = nextApp++;
		await Promise.all(
			Array.from({ length: 12 }, (_, i) =>
				appendAudit(database.db, {
					officeId: OFFICE,
					applicationId: app,
					type: 'concurrent',
					data: { i }
				})
			)
		);
		const events = await listAudit(database.db, OFFICE, app);
		expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
		expect(await verifyAuditChain(database.db, OFFICE, app)).toMatchObject({ ok: true, count: 12 });
	});

	it('joins the caller’s transaction and rolls back with it', async () => {
		const app = nextApp++;
		const base = { officeId: OFFICE, applicationId: app, type: 'in.tx' };
		await database.db.transaction(async (tx) => {
			await appendAudit(tx, base);
			await appendAudit(tx, base);
		});
		await expect(
			database.db.transaction(async (tx) => {
				await appendAudit(tx, base);
				throw new Error('rolled back');
			})
		).rejects.toThrow('rolled back');
		expect(await verifyAuditChain(database.db, OFFICE, app)).toMatchObject({ ok: true, count: 2 });
	});

	it('refuses data that looks like an SSN, anywhere in it', async () => {
		const app = nextApp++;
		const base = { officeId: OFFICE, applicationId: app, type: 'decision.accepted' };
		const bad: Record<string, unknown>[] = [
			{ ssn: '123456789' },
			{ ssn: '123-45-6789' },
			{ note: 'SSN 123-45-6789 given' },
			{ deep: { list: ['ok', { answer: 'ssn:123456789' }] } },
			{ '123456789': true }
		];
		for (const data of bad) {
			await expect(appendAudit(database.db, { ...base, data })).rejects.toThrow(
				/looks like an SSN/
			);
		}
		// The message says where, never the value.
		await expect(
			appendAudit(database.db, { ...base, data: { a: { b: '987654321' } } })
		).rejects.toThrow(/^audit: data\.a\.b looks like an SSN; refusing to record it$/);
		expect(await listAudit(database.db, OFFICE, app)).toEqual([]);

		// The last four, hashes, uuids, phone numbers and numeric ids are fine.
		const ok = await appendAudit(database.db, {
			...base,
			data: {
				ssnLast4: '6789',
				sha256: '123456789abcdef0'.repeat(4),
				session: '12345678-1234-1234-1234-123456789012',
				phone: '+1 555 555 0100',
				merchantDecisionId: 123456789
			}
		});
		expect(ok.seq).toBe(1);
	});

	it('refuses a session id that is not a uuid', async () => {
		await expect(
			appendAudit(database.db, { officeId: OFFICE, applicationId: 2, type: 'x', sessionId: 'nope' })
		).rejects.toThrow(/uuid/);
	});
});
