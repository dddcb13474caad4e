import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, openMemoryDatabase, type Database } from '$lib/server/db';
import { appendAudit } from '$lib/server/audit/audit';
import {
	decisions,
	declines,
	handovers,
	identityAttempts,
	mailOutbox,
	repSessions,
	reps,
	signingSessions
} from '$lib/server/db/schema';
import { BY_OPERATOR_API, createLink, DEMO_MAKERS, isDemoLink } from '$lib/server/links/links';
import { TEST_DATABASE_URL, throwawayDatabase } from '$lib/server/testing/postgres';
import { loadFacts } from './facts';

const OFFICE = 1207;
const meta = { ip: null, userAgent: null };
// Milliseconds that are not zero: the one statement carries them as numbers, and must keep them.
const first = new Date('2026-11-20T09:15:30.123Z');
const second = new Date('2026-11-21T17:45:01.987Z');
const later = new Date('2026-11-21T17:50:02.456Z');
const judged = new Date('2026-11-20T09:16:41.789Z');
/** The session of 50001's identity tries. */
const sessionId = randomUUID();

async function fill(db: Database['db']) {
	const link = (officeId: number, applicationId: number, at: Date, createdBy = 'test') =>
		createLink(
			db,
			{
				officeId,
				applicationId,
				email: `${applicationId}@example.com`,
				createdBy,
				ttlHours: 72,
				meta
			},
			at
		);
	await link(OFFICE, 50001, first, 'operator-api'); // the operator's systems made this one
	const current = await link(OFFICE, 50001, second); // revokes the first at `second`
	await link(OFFICE, 50002, first);
	const theirs = await link(3300, 50001, first); // another office's application of the same number
	// The current link's email: tried once and waiting, after an older send of it that failed; and
	// the other office's, sent. Each link reads only its own newest.
	const mail = (linkId: string, officeId: number, createdAt: Date) => ({
		kind: 'link' as const,
		officeId,
		applicationId: 50001,
		linkId,
		to: '50001@example.com',
		subject: 'Your application is ready to sign',
		createdAt
	});
	await db.insert(mailOutbox).values([
		{
			...mail(current.link.id, OFFICE, first),
			status: 'failed',
			lastError: 'the address was refused'
		},
		{
			...mail(current.link.id, OFFICE, second),
			status: 'pending',
			attempts: 1,
			lastError: 'the mail server could not be reached',
			nextAttemptAt: later
		},
		{ ...mail(theirs.link.id, 3300, first), status: 'sent', attempts: 1, sentAt: second }
	]);
	await db.insert(identityAttempts).values([
		{
			officeId: OFFICE,
			applicationId: 50001,
			sessionId,
			questionSetId: 'q1',
			startedAt: first,
			deadlineAt: second,
			finishedAt: judged,
			outcome: 'failed'
		},
		{
			// Shown and left: still pending, its questions kept until it is closed.
			officeId: OFFICE,
			applicationId: 50001,
			sessionId,
			questionSetId: 'q3',
			startedAt: second,
			deadlineAt: later,
			outcome: 'pending',
			questionsEnc: 'v1.aXY.dGFn.c2V0'
		},
		{
			officeId: 3300,
			applicationId: 50001,
			sessionId,
			questionSetId: 'q2',
			startedAt: first,
			deadlineAt: second,
			finishedAt: second,
			outcome: 'passed'
		}
	]);
	// In person on 50002: handed over on one tablet, then resumed on a second (the first tablet's
	// row stays open, its key to the session dead), which the merchant returned.
	const [rep] = await db
		.insert(reps)
		.values({
			officeId: OFFICE,
			repNo: 31,
			name: 'Sam Ortiz',
			email: 's@example.com',
			passwordHash: 'x'
		})
		.returning();
	const tablets = await db
		.insert(repSessions)
		.values([1, 2].map((n) => ({ tokenHash: `rep-${n}`, repId: rep!.id })))
		.returning();
	const [inPerson] = await db
		.insert(signingSessions)
		.values({
			tokenHash: 'in-person',
			channel: 'in_person',
			officeId: OFFICE,
			applicationId: 50002,
			businessName: 'Test',
			createdAt: first,
			lastSeenAt: later
		})
		.returning();
	const handover = (n: number, startedAt: Date) => ({
		tokenHash: `tablet-${n}`,
		repSessionId: tablets[n - 1]!.id,
		repId: rep!.id,
		signingSessionId: inPerson!.id,
		officeId: OFFICE,
		applicationId: 50002,
		startedAt,
		lastSeenAt: startedAt
	});
	await db.insert(handovers).values([
		handover(1, first),
		{
			...handover(2, second),
			lastSeenAt: later,
			lockedAt: later,
			lockReason: 'returned' as const
		}
	]);
	await db.insert(declines).values({
		officeId: OFFICE,
		applicationId: 50002,
		sessionId,
		stage: 'terms',
		reason: 'Fees too high',
		createdAt: second
	});
	// 50004 signed under names other than the owner's (recordDecision's event says so); 50005 by
	// the owner, whose event carries no owner's name.
	for (const [applicationId, names] of [
		[50004, { signerName: 'Olga Petrova', ownerName: 'Dana Whitfield' }],
		[50005, { signerName: 'Dana Whitfield' }]
	] as const) {
		const [decision] = await db
			.insert(decisions)
			.values({
				officeId: OFFICE,
				applicationId,
				sessionId: randomUUID(),
				isAccepted: true,
				body: {},
				ssnLast4: '0000',
				status: 'delivered',
				createdAt: second,
				nextAttemptAt: second,
				deliveredAt: later
			})
			.returning();
		await db.transaction((tx) =>
			appendAudit(tx, {
				officeId: OFFICE,
				applicationId,
				type: 'decision.accepted',
				at: second,
				data: { decisionId: decision!.id, ...names }
			})
		);
	}
}

function checks(open: () => Promise<{ db: Database['db']; close: () => Promise<void> }>) {
	let db: Database['db'];
	let close: () => Promise<void>;
	beforeAll(async () => {
		({ db, close } = await open());
		await fill(db);
	});
	afterAll(() => close());

	it('reads every application of the office asked for, in one statement, with exact times', async () => {
		const facts = await loadFacts(db, OFFICE, [50001, 50002, 50003]);
		expect([...facts.keys()]).toEqual([50001, 50002, 50003]);

		const a = facts.get(50001)!;
		const links = a.links.toSorted((x, y) => x.createdAt.getTime() - y.createdAt.getTime());
		expect(links).toEqual([
			{
				id: expect.any(String),
				email: '50001@example.com',
				createdAt: first,
				expiresAt: new Date(first.getTime() + 72 * 3_600_000),
				revokedAt: second,
				usedAt: null,
				viaApi: true,
				mail: null
			},
			{
				id: expect.any(String),
				email: '50001@example.com',
				createdAt: second,
				expiresAt: new Date(second.getTime() + 72 * 3_600_000),
				revokedAt: null,
				usedAt: null,
				viaApi: false,
				mail: {
					status: 'pending',
					sentAt: null,
					problem: 'the mail server could not be reached',
					nextAt: later
				}
			}
		]);
		expect(a.attempts).toEqual([
			{
				sessionId,
				startedAt: first,
				deadlineAt: second,
				finishedAt: judged,
				outcome: 'failed',
				shown: false
			},
			{
				sessionId,
				startedAt: second,
				deadlineAt: later,
				finishedAt: null,
				outcome: 'pending',
				shown: true
			}
		]);
		expect(a.declines).toEqual([]);
		expect(a.sessions).toEqual([]);
		expect(a.decision).toBeNull();

		const b = facts.get(50002)!;
		expect(b.links).toHaveLength(1);
		expect(b.declines).toEqual([{ at: second, reason: 'Fees too high' }]);
		expect(b.attempts).toEqual([]);
		// The session's newest hand-over only: the first tablet's open row no longer counts.
		expect(b.sessions).toHaveLength(1);
		const [newest] = await db
			.select({ id: handovers.id })
			.from(handovers)
			.where(eq(handovers.tokenHash, 'tablet-2'));
		expect(b.sessions[0]!.tablet).toEqual({
			id: newest!.id,
			lastSeenAt: later,
			lockedAt: later,
			lockReason: 'returned',
			endedAt: null
		});

		expect(facts.get(50003)).toEqual({
			links: [],
			sessions: [],
			attempts: [],
			decision: null,
			declines: [],
			events: []
		});
	});

	it('reads who signed when it was not the owner, from the decision’s event', async () => {
		const facts = await loadFacts(db, OFFICE, [50004, 50005]);
		expect(facts.get(50004)!.decision).toMatchObject({
			isAccepted: true,
			status: 'delivered',
			otherSigner: { signer: 'Olga Petrova', owner: 'Dana Whitfield' }
		});
		expect(facts.get(50004)!.events).toEqual([]);
		expect(facts.get(50005)!.decision).not.toHaveProperty('otherSigner');
		expect((await loadFacts(db, OFFICE, [50004])).get(50004)!.decision?.otherSigner).toEqual({
			signer: 'Olga Petrova',
			owner: 'Dana Whitfield'
		});
		expect((await loadFacts(db, 3300, [50004])).get(50004)!.decision).toBeNull();
	});

	it('marks the demo’s links, by whichever of the demo’s makers, and no other', async () => {
		const made = new Date('2026-11-22T10:00:00.000Z');
		const makers = [...DEMO_MAKERS, BY_OPERATOR_API, 'rep:1', 'test'];
		for (const [i, createdBy] of makers.entries()) {
			await createLink(
				db,
				{ officeId: 4400, applicationId: 60001 + i, email: null, createdBy, ttlHours: 72, meta },
				made
			);
		}
		const facts = await loadFacts(
			db,
			4400,
			makers.map((_, i) => 60001 + i)
		);
		const demo = makers.map((_, i) => facts.get(60001 + i)!.links[0]!.demo === true);
		expect(demo).toEqual(makers.map((m) => isDemoLink(m)));
		expect(demo.filter(Boolean)).toHaveLength(DEMO_MAKERS.length);
	});

	it('marks a session whose pass was carried over, not one whose questions were answered in it', async () => {
		const session = async (tokenHash: string, channel: 'link' | 'in_person') => {
			const [row] = await db
				.insert(signingSessions)
				.values({
					tokenHash,
					channel,
					officeId: 4500,
					applicationId: 70001,
					businessName: 'Test',
					createdAt: first,
					lastSeenAt: later,
					identityPassedAt: channel === 'link' ? first : second
				})
				.returning();
			return row!;
		};
		const own = await session('own-pass', 'link');
		const carried = await session('carried-pass', 'in_person');
		await db.transaction(async (tx) => {
			const passed = (s: typeof own, at: Date, data: Record<string, unknown>) =>
				appendAudit(tx, {
					officeId: 4500,
					applicationId: 70001,
					sessionId: s.id,
					type: 'identity.passed',
					at,
					data
				});
			await passed(own, first, { questionSetId: 'q1' });
			await passed(carried, second, { by: 'earlier pass, photo ID checked in person' });
		});
		const facts = (await loadFacts(db, 4500, [70001])).get(70001)!;
		const byId = new Map(facts.sessions.map((s) => [s.id, s]));
		expect(byId.get(carried.id)).toMatchObject({ carried: true, identityPassedAt: second });
		expect(byId.get(own.id)).not.toHaveProperty('carried');
		// Read for that only: not among the events the state judges.
		expect(facts.events).toEqual([]);
	});

	it('reads one application alone, bound to its office', async () => {
		const mine = (await loadFacts(db, OFFICE, [50001])).get(50001)!;
		expect(mine.links).toHaveLength(2);
		expect(mine.attempts).toHaveLength(2);
		const theirs = (await loadFacts(db, 3300, [50001])).get(50001)!;
		expect(theirs.links).toHaveLength(1);
		expect(theirs.links[0]!.mail).toEqual({
			status: 'sent',
			sentAt: second,
			problem: null,
			nextAt: null
		});
		expect(theirs.attempts).toEqual([
			{
				sessionId,
				startedAt: first,
				deadlineAt: second,
				finishedAt: second,
				outcome: 'passed',
				shown: false
			}
		]);
		expect((await loadFacts(db, OFFICE, [])).size).toBe(0);
	});
}

describe('console facts on PGlite', () => {
	checks(async () => {
		const d = await openMemoryDatabase();
		return { db: d.db, close: d.close };
	});
});

describe.runIf(TEST_DATABASE_URL)('console facts on a PostgreSQL server', () => {
	checks(async () => {
		const throwaway = await throwawayDatabase(TEST_DATABASE_URL!);
		const d = await openDatabase({ url: throwaway.url });
		return {
			db: d.db,
			close: async () => {
				await d.close();
				await throwaway.drop();
			}
		};
	});
});
