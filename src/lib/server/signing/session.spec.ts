import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openMemoryDatabase } from '$lib/server/db';
import { decisions, declines, signingSessions } from '$lib/server/db/schema';
import { createLink, revokeLinks } from '$lib/server/links/links';
import {
	createSession,
	currentStep,
	findSession,
	MAX_SESSION_MS,
	resumableOf,
	resumeSession,
	touchInterval,
	type SigningSession
} from './session';
import { expectChainHeadWithSession } from './testing';

const base = {
	decisionId: null,
	identityPassedAt: null,
	consentAt: null
} as unknown as SigningSession;
const at = new Date();
const input = {
	channel: 'link' as const,
	repId: null,
	officeId: 1207,
	businessName: 'B',
	ownerFirstName: '',
	ownerLastName: '',
	ownerEmail: '',
	ip: null,
	userAgent: null
};

describe('the in-person session a hand-over picks up', () => {
	const now = new Date('2026-11-27T12:00:00Z');
	const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
	const session = (id: string, over: Partial<Parameters<typeof resumableOf>[0][number]> = {}) => ({
		id,
		channel: 'in_person' as 'in_person' | 'link',
		closedAt: null as Date | null,
		decisionId: null as string | null,
		declineId: null as string | null,
		createdAt: ago(20),
		lastSeenAt: ago(5),
		...over
	});

	it('is the newest not closed, decided or declined, and only while it is open', () => {
		const older = session('older', { createdAt: ago(40) });
		expect(resumableOf([older, session('newer')], 30, now)?.id).toBe('newer');
		// Over (closed, decided, declined) or on a link: passed over for the one before.
		for (const over of [
			{ closedAt: ago(1) },
			{ decisionId: 'd' },
			{ declineId: 'x' },
			{ channel: 'link' as const }
		]) {
			expect(resumableOf([older, session('newer', over)], 30, now)?.id).toBe('older');
		}
		// The newest left idle past the limit: none, not the one before it.
		expect(resumableOf([older, session('idle', { lastSeenAt: ago(31) })], 30, now)).toBeNull();
		expect(resumableOf([], 30, now)).toBeNull();
	});
});

describe('step order', () => {
	it('follows what is recorded, in order', () => {
		expect(currentStep(base)).toBe('terms');
		expect(currentStep({ ...base, consentAt: at })).toBe('identity');
		expect(currentStep({ ...base, consentAt: at, identityPassedAt: at })).toBe('sign');
		expect(currentStep({ ...base, consentAt: at, identityPassedAt: at, decisionId: 'd' })).toBe(
			'done'
		);
	});
});

describe('idle time', () => {
	it('is recorded to the minute (a tenth of a short limit), not on every request', async () => {
		expect(touchInterval(30)).toBe(60_000);
		expect(touchInterval(1)).toBe(6_000);
		const database = await openMemoryDatabase();
		try {
			const t0 = new Date('2026-05-01T12:00:00Z');
			const later = (ms: number) => new Date(t0.getTime() + ms);
			const { secret, session } = await createSession(
				database.db,
				{ ...input, linkId: null, applicationId: 9 },
				t0
			);
			const seen = async () =>
				(
					await database.db
						.select({ at: signingSessions.lastSeenAt })
						.from(signingSessions)
						.where(eq(signingSessions.id, session.id))
				)[0]!.at.getTime();

			expect(await resumeSession(database.db, secret, 30, later(59_000))).toBeDefined();
			expect(await seen()).toBe(t0.getTime());
			expect(await resumeSession(database.db, secret, 30, later(61_000))).toBeDefined();
			expect(await seen()).toBe(later(61_000).getTime());
			// Idle for the whole limit since the last recorded touch: the session has ended.
			expect(await resumeSession(database.db, secret, 30, later(61_000 + 30 * 60_000 + 1))).toBe(
				undefined
			);
		} finally {
			await database.close();
		}
	});
});

describe('the done step’s PDFs', () => {
	it('read the application’s chain head with the session, when asked', async () => {
		const database = await openMemoryDatabase();
		try {
			await expectChainHeadWithSession(database.db, 77);
		} finally {
			await database.close();
		}
	});
});

describe('an ended session', () => {
	const meta = { ip: null, userAgent: null };
	const linkFor = (
		db: Parameters<typeof createLink>[0],
		applicationId: number,
		now: Date,
		email: string | null = null
	) =>
		createLink(
			db,
			{ officeId: 1207, applicationId, email, createdBy: 'rep:x', ttlHours: 72, meta },
			now
		);
	const sessionOn = (
		db: Parameters<typeof createSession>[0],
		link: { id: string; applicationId: number },
		now: Date
	) =>
		createSession(
			db,
			{ ...input, linkId: link.id, applicationId: link.applicationId, repNo: 3 },

			now
		);

	it('says how it ended: link replaced (emailed or not), withdrawn, taken in person, idle, too old', async () => {
		const database = await openMemoryDatabase();
		const { db } = database;
		try {
			const t0 = new Date('2026-05-01T12:00:00Z');
			const later = (ms: number) => new Date(t0.getTime() + ms);
			const ended = async (secret: string, now: Date) => {
				const found = await findSession(db, secret, 30, now);
				return found && 'ended' in found ? found.ended : found;
			};

			// Replaced: a newer link for the application, to copy (in no email).
			const a = await linkFor(db, 1, t0);
			const onA = await sessionOn(db, a.link, t0);
			expect(await findSession(db, onA.secret, 30, later(1000))).toEqual({
				open: expect.objectContaining({ id: onA.session.id })
			});
			await linkFor(db, 1, later(2000));
			expect(await ended(onA.secret, later(3000))).toEqual({
				end: 'link_revoked',
				// The session's own row, where a post from its sign step keeps what it held.
				sessionId: onA.session.id,
				revoked: {
					how: 'replaced_unsent',
					by: 'rep:x',
					inPerson: false,
					decided: false,
					declined: false
				},
				officeId: 1207,
				applicationId: 1,
				repNo: 3,
				linkId: a.link.id,
				channel: 'link'
			});
			// Then one emailed: the newest link is what the merchant is sent to, in their mail.
			await linkFor(db, 1, later(4000), 'merchant@example.com');
			expect(await ended(onA.secret, later(5000))).toMatchObject({
				revoked: { how: 'replaced', by: 'rep:x' }
			});
			// And a copy after that: their newest email holds a link that no longer opens either.
			await linkFor(db, 1, later(6000));
			expect(await ended(onA.secret, later(7000))).toMatchObject({
				revoked: { how: 'replaced_unsent', by: 'rep:x' }
			});
			// Withdrawn in its turn: no newer link to send the merchant to, and not "withdrawn" of
			// the link this session was opened with, which a newer one replaced.
			await revokeLinks(db, { officeId: 1207, applicationId: 1, rep: 'y', meta }, later(7500));
			expect(await ended(onA.secret, later(8000))).toMatchObject({
				revoked: { how: 'replaced_closed', inPerson: false }
			});

			// Withdrawn by the rep's Revoke, and revoked for a hand-over, with no newer link.
			const b = await linkFor(db, 2, t0);
			const onB = await sessionOn(db, b.link, t0);
			await revokeLinks(db, { officeId: 1207, applicationId: 2, rep: 'x', meta }, later(2000));
			expect(await ended(onB.secret, later(3000))).toMatchObject({
				revoked: { how: 'withdrawn', by: null }
			});
			const c = await linkFor(db, 3, t0);
			const onC = await sessionOn(db, c.link, t0);
			await revokeLinks(
				db,
				{ officeId: 1207, applicationId: 3, rep: 'x', meta, reason: 'in_person', by: 'rep:r2' },
				later(2000)
			);
			// The rep who took it in person, whom the merchant's page names.
			expect(await ended(onC.secret, later(3000))).toMatchObject({
				revoked: { how: 'in_person', by: 'rep:r2', inPerson: true, decided: false }
			});
			// A link sent since: the merchant goes on with it, and the hand-over is still what ended
			// this session.
			const sent = await linkFor(db, 3, later(4000), 'merchant@example.com');
			expect(await ended(onC.secret, later(5000))).toMatchObject({
				revoked: { how: 'replaced', inPerson: true, decided: false, declined: false }
			});
			// Past its own end, that link is none to go on with: the hand-over is what is said.
			expect(await ended(onC.secret, new Date(sent.link.expiresAt.getTime() + 1))).toMatchObject({
				revoked: { how: 'in_person', by: 'rep:r2', inPerson: true }
			});
			// Nor once it too is taken in person (a second hand-over).
			await revokeLinks(
				db,
				{ officeId: 1207, applicationId: 3, rep: 'x', meta, reason: 'in_person', by: 'rep:r3' },
				later(6000)
			);
			expect(await ended(onC.secret, later(7000))).toMatchObject({
				revoked: { how: 'in_person', by: 'rep:r2', inPerson: true, declined: false }
			});
			// Declined at the counter before identity since: said, undecided.
			await db.insert(declines).values({
				officeId: 1207,
				applicationId: 3,
				sessionId: randomUUID(),
				stage: 'terms',
				createdAt: later(8000)
			});
			expect(await ended(onC.secret, later(9000))).toMatchObject({
				revoked: { inPerson: true, decided: false, declined: true }
			});
			// And once a decision is on record, that is what it says.
			await db.insert(decisions).values({
				officeId: 1207,
				applicationId: 3,
				sessionId: randomUUID(),
				isAccepted: true,
				body: {},
				ssnLast4: '0000'
			});
			expect(await ended(onC.secret, later(10_000))).toMatchObject({
				revoked: { inPerson: true, decided: true, declined: false }
			});

			// Idle, and past a working day however active; a cookie that names nothing is nothing.
			const d = await linkFor(db, 4, t0);
			const onD = await sessionOn(db, d.link, t0);
			expect(await ended(onD.secret, later(30 * 60_000 + 1))).toMatchObject({
				end: 'idle',
				sessionId: onD.session.id
			});
			expect((await ended(onD.secret, later(30 * 60_000 + 1)))!).not.toHaveProperty(
				'revoked',
				expect.anything()
			);
			await db
				.update(signingSessions)
				.set({ lastSeenAt: later(MAX_SESSION_MS) })
				.where(eq(signingSessions.id, onD.session.id));
			expect(await ended(onD.secret, later(MAX_SESSION_MS + 1))).toMatchObject({
				end: 'expired'
			});
			expect(await findSession(db, 'x'.repeat(43), 30, t0)).toBeUndefined();

			// Finished, then idle: its done page, closed, says what was recorded (guard.ts).
			const e = await linkFor(db, 5, t0);
			const onE = await sessionOn(db, e.link, t0);
			await db
				.update(signingSessions)
				.set({ decisionId: randomUUID() })
				.where(eq(signingSessions.id, onE.session.id));
			expect(await ended(onE.secret, later(30 * 60_000 + 1))).toMatchObject({
				end: 'idle',
				finished: 'decided'
			});
		} finally {
			await database.close();
		}
	});
});
