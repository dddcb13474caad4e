import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '$lib/server/app';
import { appendAudit } from '$lib/server/audit/audit';
import { schema } from '$lib/server/db';
import { issueLink } from '$lib/server/links/ending';
import { addRep } from '$lib/server/reps/accounts';
import { createRepSession, resumeRepSession, type SignedInRep } from '$lib/server/reps/session';
import { startSandboxServer, type SandboxServer } from '$lib/server/sandbox/testing';
import { testContext } from '$lib/server/testing/app';
import { TEST_DATABASE_URL } from '$lib/server/testing/postgres';
import { twoInstancePools } from '$lib/server/testing/two-pools';
import { handOver } from './handover';

const meta = { ip: '203.0.113.8', userAgent: 'vitest' };
const OFFICE = 1207;
const APP = 50002;

describe.runIf(TEST_DATABASE_URL)('a hand-over and a new link at once, two instances', () => {
	let sandbox: SandboxServer;
	const pools = twoInstancePools();
	let instances: AppContext[] = [];
	let rep: SignedInRep;

	beforeAll(async () => {
		sandbox = await startSandboxServer();
		const key = randomBytes(32);
		instances = pools.map((p) => testContext(p, sandbox.baseUrl, {}, key));
		const db = pools[0]!.db;
		await addRep(
			db,
			{ officeId: OFFICE, repNo: 31, email: 'sam@example.com', name: 'Sam' },
			'pw pw pw pw pw pw'
		);
		const [row] = await db.select().from(schema.reps);
		const secret = await createRepSession(db, row!.id, meta);
		rep = (await resumeRepSession(db, secret, { idleMinutes: 30, maxHours: 12 }))!.rep;
	});
	afterAll(async () => {
		await sandbox?.close();
	});

	it('never leave a link usable beside a tablet in the merchant’s hands', async () => {
		const db = pools[0]!.db;
		const outcomes = new Set<boolean>();
		for (let round = 0; round < 24; round++) {
			const [handed, link] = await Promise.all([
				handOver(instances[0]!, { rep, applicationId: APP, idType: null, idLast4: null, meta }),
				// Started a little later each round, so that it meets the hand-over at each of its steps.
				sleep(round * 2).then(() =>
					issueLink(instances[1]!, {
						officeId: OFFICE,
						applicationId: APP,
						email: null,
						createdBy: 'test',
						ttlHours: 1,
						meta
					})
				)
			]);
			expect(handed.ok).toBe(true);
			outcomes.add(link.ok);
			const usable = await db
				.select({ id: schema.signingLinks.id })
				.from(schema.signingLinks)
				.where(
					and(
						eq(schema.signingLinks.applicationId, APP),
						isNull(schema.signingLinks.revokedAt),
						isNull(schema.signingLinks.usedAt),
						gt(schema.signingLinks.expiresAt, new Date())
					)
				);
			// The tablet is out (handOver's own row): so no link can be opened.
			expect(usable, `round ${round}`).toEqual([]);
			// Taken back, for the next round.
			await db
				.update(schema.handovers)
				.set({ lockedAt: new Date(), lockReason: 'returned' })
				.where(isNull(schema.handovers.lockedAt));
		}
		// Both ways round happened: a link made first (then ended by the hand-over) and a link refused.
		expect([...outcomes].sort()).toEqual([false, true]);
	});

	let kim: SignedInRep;
	const give = (i: number, who: SignedInRep, known?: string[]) =>
		handOver(instances[i]!, {
			rep: who,
			applicationId: APP,
			idType: null,
			idLast4: null,
			meta,
			known
		});

	it('of two reps handing over at once, each from a page with no tablet out, one takes it', async () => {
		const db = pools[0]!.db;
		await addRep(
			db,
			{ officeId: OFFICE, repNo: 32, email: 'kim@example.com', name: 'Kim' },
			'pw pw pw pw pw pw'
		);
		const [row] = await db.select().from(schema.reps).where(eq(schema.reps.repNo, 32));
		const secret = await createRepSession(db, row!.id, meta);
		kim = (await resumeRepSession(db, secret, { idleMinutes: 30, maxHours: 12 }))!.rep;
		for (let round = 0; round < 8; round++) {
			// Every tablet taken back: both pages show none out.
			await db
				.update(schema.handovers)
				.set({ lockedAt: new Date(), lockReason: 'returned' })
				.where(isNull(schema.handovers.lockedAt));
			const results = await Promise.all([
				give(0, rep, []),
				sleep(round).then(() => give(1, kim, []))
			]);
			// One hand-over went through; the other was refused, not taken from the merchant unseen.
			expect(results.map((r) => r.ok).sort(), `round ${round}`).toEqual([false, true]);
			expect(results.find((r) => !r.ok)).toEqual({ ok: false, reason: 'moved' });
			const out = await db
				.select()
				.from(schema.handovers)
				.where(and(eq(schema.handovers.applicationId, APP), isNull(schema.handovers.lockedAt)));
			expect(out, `round ${round}`).toHaveLength(1);
		}
	});

	it('a hand-over that picks up the session on a colleague’s tablet, while the merchant acts on it, waits its turn', async () => {
		const db = pools[1]!.db;
		for (let round = 0; round < 12; round++) {
			const first = await give(0, rep);
			if (!first.ok) throw new Error(`round ${round}: ${first.reason}`);
			const id = first.session.id;
			const [taken] = await Promise.all([
				give(1, kim),
				// The merchant's step on Sam's tablet, as the terms page writes it: the session's row,
				// then the trail (which takes the application's lock).
				sleep(round).then(() =>
					db.transaction(async (tx) => {
						await tx
							.update(schema.signingSessions)
							.set({ lastSeenAt: new Date() })
							.where(eq(schema.signingSessions.id, id));
						await sleep(15);
						await appendAudit(tx, {
							officeId: OFFICE,
							applicationId: APP,
							sessionId: id,
							channel: 'in_person',
							type: 'consent.given'
						});
					})
				)
			]);
			// Neither was aborted as a deadlock: the merchant's step is in, and Kim has the signing.
			expect(taken, `round ${round}`).toMatchObject({ ok: true, session: { id } });
		}
	});
});
