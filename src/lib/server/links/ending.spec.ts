import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listAudit } from '$lib/server/audit/audit';
import { hashToken, newToken } from '$lib/server/crypto/tokens';
import { openMemoryDatabase, schema, type Database } from '$lib/server/db';
import { addRep } from '$lib/server/reps/accounts';
import { createRepSession, resumeRepSession } from '$lib/server/reps/session';
import { createSession } from '$lib/server/signing/session';
import { testContext, testSessionInput } from '$lib/server/testing/app';
import type { AppContext } from '$lib/server/app';
import { issueLink } from './ending';
import { createLink } from './links';

const T0 = new Date('2026-03-10T15:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const meta = { ip: '203.0.113.5', userAgent: 'vitest' };
const APP = 70101;

describe('a new link while a tablet is in the merchant’s hands', { timeout: 60_000 }, () => {
	let database: Database;
	let ctx: AppContext;
	let rep: { id: string; sessionId: string };
	let app = APP;

	beforeAll(async () => {
		database = await openMemoryDatabase();
		// The service is never asked: no address is listening there. Tablets idle after 180 s.
		ctx = testContext(database, 'http://127.0.0.1:9', { IN_PERSON_IDLE_SECONDS: '180' });
		await addRep(
			database.db,
			{ officeId: 1207, repNo: 31, email: 'sam@example.com', name: 'Sam' },
			'pw pw pw pw pw pw',
			T0
		);
		const [row] = await database.db.select().from(schema.reps);
		const secret = await createRepSession(database.db, row!.id, meta, T0);
		const resumed = (await resumeRepSession(
			database.db,
			secret,
			{ idleMinutes: 30, maxHours: 12 },
			T0
		))!;
		rep = { id: resumed.rep.id, sessionId: resumed.rep.sessionId };
	});
	afterAll(() => database.close());
	// Each case on an application of its own.
	beforeEach(() => {
		app++;
	});

	const input = (applicationId: number) => ({
		officeId: 1207,
		applicationId,
		email: null,
		createdBy: 'test',
		ttlHours: 24,
		meta
	});

	/** A tablet handed over at T0 for the application, as handOver writes it. */
	async function handOver(applicationId: number) {
		const { session } = await database.db.transaction((tx) =>
			createSession(
				tx,
				{ ...testSessionInput(applicationId), channel: 'in_person', repId: rep.id },
				T0
			)
		);
		const [row] = await database.db
			.insert(schema.handovers)
			.values({
				tokenHash: hashToken(newToken()),
				repSessionId: rep.sessionId,
				repId: rep.id,
				signingSessionId: session.id,
				officeId: 1207,
				applicationId,
				startedAt: T0,
				lastSeenAt: T0
			})
			.returning();
		return { handover: row!, session };
	}

	const usableLinks = async (applicationId: number) =>
		(
			await database.db
				.select()
				.from(schema.signingLinks)
				.where(eq(schema.signingLinks.applicationId, applicationId))
		).filter((l) => !l.revokedAt && !l.usedAt);

	it('is refused, whoever asks and under any guard, and the link there stays as it was', async () => {
		const { link } = await createLink(database.db, input(app), T0);
		await handOver(app);
		const before = await listAudit(database.db, 1207, app);
		for (const guard of [{}, { keep: false }, { replaces: link.id }]) {
			const made = await issueLink(ctx, { ...input(app), ...guard }, at(30));
			expect(made, JSON.stringify(guard)).toEqual({ ok: false, reason: 'tablet' });
		}
		expect((await usableLinks(app)).map((l) => l.id)).toEqual([link.id]);
		expect(await listAudit(database.db, 1207, app)).toEqual(before);
	});

	it('is refused for the tablet, not as a link changed, on a page from before the hand-over ended its link', async () => {
		const { link } = await createLink(database.db, input(app), T0);
		await handOver(app);
		// As a hand-over does: the link the rep's page still shows is ended.
		await database.db
			.update(schema.signingLinks)
			.set({ revokedAt: T0 })
			.where(eq(schema.signingLinks.id, link.id));
		const made = await issueLink(ctx, { ...input(app), replaces: link.id }, at(30));
		expect(made).toEqual({ ok: false, reason: 'tablet' });
	});

	it('is refused until the server’s idle limit, then made', async () => {
		await handOver(app);
		// 180 s, and the server's wait for the page's last word and its unwritten touches (30 s).
		expect(await issueLink(ctx, input(app), at(210))).toMatchObject({ ok: false });
		const made = await issueLink(ctx, input(app), at(211));
		expect(made.ok).toBe(true);
		expect((await usableLinks(app)).length).toBe(1);
	});

	it('is made once the tablet is taken back (locked) or its hand-over has ended', async () => {
		const locked = await handOver(app);
		await database.db
			.update(schema.handovers)
			.set({ lockedAt: at(5), lockReason: 'returned' })
			.where(eq(schema.handovers.id, locked.handover.id));
		expect((await issueLink(ctx, input(app), at(10))).ok).toBe(true);

		app++;
		const ended = await handOver(app);
		await database.db
			.update(schema.handovers)
			.set({ endedAt: at(5) })
			.where(eq(schema.handovers.id, ended.handover.id));
		expect((await issueLink(ctx, input(app), at(10))).ok).toBe(true);
	});

	it('is made once the signing at the counter ended in a decline or a decision', async () => {
		for (const ending of ['declineId', 'decisionId'] as const) {
			app++;
			const { session } = await handOver(app);
			expect((await issueLink(ctx, input(app), at(10))).ok).toBe(false);
			await database.db
				.update(schema.signingSessions)
				.set({ [ending]: randomUUID() })
				.where(eq(schema.signingSessions.id, session.id));
			expect((await issueLink(ctx, input(app), at(11))).ok, ending).toBe(true);
		}
	});

	it('is made for another application, or another office’s application of that number', async () => {
		await handOver(app);
		expect((await issueLink(ctx, input(app + 1), at(10))).ok).toBe(true);
		expect((await issueLink(ctx, { ...input(app), officeId: 3300 }, at(10))).ok).toBe(true);
		expect((await issueLink(ctx, input(app), at(10))).ok).toBe(false);
		app++;
	});
});
