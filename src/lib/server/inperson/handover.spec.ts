import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '$lib/server/app';
import { listAudit } from '$lib/server/audit/audit';
import { hashToken, newToken } from '$lib/server/crypto/tokens';
import { openMemoryDatabase, schema, type Database } from '$lib/server/db';
import { addRep, disableRep } from '$lib/server/reps/accounts';
import { createRepSession, resumeRepSession, type SignedInRep } from '$lib/server/reps/session';
import { startSandboxServer, type SandboxServer } from '$lib/server/sandbox/testing';
import { signIn } from '$lib/server/reps/signin';
import { createSession } from '$lib/server/signing/session';
import { testContext, testSessionInput } from '$lib/server/testing/app';
import {
	endHandover,
	findHandover,
	handOver,
	holdsTabletKey,
	lockHandover,
	openHandovers,
	reissueTabletKey
} from './handover';
import { unlockHandover } from './unlock';

const T0 = new Date('2026-03-10T15:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const meta = { ip: '203.0.113.5', userAgent: 'vitest' };
const rules = { idleSeconds: 180, touch: false };

describe('the tablet lock (hand-over rows)', { timeout: 60_000 }, () => {
	let database: Database;
	let keys: { tabletSecret: string; repSessionId: string; signingSessionId: string };
	let handoverId: string;
	let repSecret: string;
	const repRules = { idleMinutes: 30, maxHours: 12 };

	beforeAll(async () => {
		database = await openMemoryDatabase();
		const db = database.db;
		await addRep(
			db,
			{ officeId: 1207, repNo: 31, email: 'sam@example.com', name: 'Sam' },
			'pw pw pw pw pw pw',
			T0
		);
		const secret = await createRepSession(
			db,
			(await db.select().from(schema.reps))[0]!.id,
			meta,
			T0
		);
		repSecret = secret;
		const resumed = (await resumeRepSession(db, secret, repRules, T0))!;
		expect(resumed.handover).toBeNull();
		const rep = resumed.rep;
		const { session } = await db.transaction((tx) =>
			createSession(tx, { ...testSessionInput(70001), channel: 'in_person', repId: rep.id }, T0)
		);
		const tabletSecret = newToken();
		const [row] = await db
			.insert(schema.handovers)
			.values({
				tokenHash: hashToken(tabletSecret),
				repSessionId: rep.sessionId,
				repId: rep.id,
				signingSessionId: session.id,
				officeId: 1207,
				applicationId: 70001,
				startedAt: T0,
				lastSeenAt: T0
			})
			.returning();
		handoverId = row!.id;
		keys = { tabletSecret, repSessionId: rep.sessionId, signingSessionId: session.id };
	});
	afterAll(() => database.close());

	it('is found by any one of its three keys, and by nothing else', async () => {
		for (const key of ['tabletSecret', 'repSessionId', 'signingSessionId'] as const) {
			const found = await findHandover(database.db, { [key]: keys[key] }, rules, at(10));
			expect(found?.id, key).toBe(handoverId);
		}
		expect(await findHandover(database.db, {}, rules, at(10))).toBeUndefined();
		const stranger = { tabletSecret: newToken() };
		expect(await findHandover(database.db, stranger, rules, at(10))).toBeUndefined();
	});

	it('comes with the rep’s session, as findHandover finds it by that session', async () => {
		const resumed = await resumeRepSession(database.db, repSecret, repRules, at(10));
		const found = await findHandover(
			database.db,
			{ repSessionId: keys.repSessionId },
			rules,
			at(10)
		);
		expect(resumed?.handover).toEqual(found);
		expect(resumed?.handover?.id).toBe(handoverId);
	});

	it('a new tablet key opens it, and the old one nothing', async () => {
		const h = (await findHandover(
			database.db,
			{ repSessionId: keys.repSessionId },
			rules,
			at(20)
		))!;
		const fresh = await reissueTabletKey(database.db, h);
		expect(fresh).not.toBe(keys.tabletSecret);
		const byOld = await findHandover(
			database.db,
			{ tabletSecret: keys.tabletSecret },
			rules,
			at(20)
		);
		expect(byOld).toBeUndefined();
		const byNew = await findHandover(database.db, { tabletSecret: fresh }, rules, at(20));
		expect(byNew?.id).toBe(handoverId);
		// What the hook asks before it gives a key: the cookie is none, or no longer the key.
		expect(holdsTabletKey(byNew!, fresh)).toBe(true);
		expect(holdsTabletKey(byNew!, keys.tabletSecret)).toBe(false);
		expect(holdsTabletKey(byNew!, undefined)).toBe(false);
		keys.tabletSecret = fresh;
	});

	it('a signing page restarts the idle count; past the limit the server locks it itself', async () => {
		const touched = await findHandover(database.db, keys, { ...rules, touch: true }, at(100));
		expect(touched?.lastSeenAt).toEqual(at(100));
		expect(touched?.lockedAt).toBeNull();
		// A touch within 15 s of the last one is not written.
		const read = await findHandover(database.db, keys, { ...rules, touch: true }, at(114));
		expect(read?.lastSeenAt).toEqual(at(100));
		// The server waits past the 180 s limit for the page's last word (at most 15 s old) and
		// its own unwritten touches (15 s): 210 s after the touch still open; a second more, locked.
		expect((await findHandover(database.db, keys, rules, at(310)))?.lockedAt).toBeNull();
		const idle = await findHandover(database.db, keys, rules, at(311));
		expect(idle?.lockedAt).toEqual(at(311));
		expect(idle?.lockReason).toBe('idle');
		// Locked stays locked, and a later lock keeps the first reason.
		const again = await lockHandover(database.db, idle!, 'returned', { now: at(330) });
		expect(again.lockReason).toBe('idle');
		// The trail has the first lock, and only it: when, why, whose device, which session.
		expect(await trail()).toEqual([
			{
				type: 'device.locked',
				at: at(311),
				channel: 'in_person',
				rep: idle!.repId,
				sessionId: keys.signingSessionId,
				ip: null,
				data: { reason: 'idle', idleSeconds: 180 }
			}
		]);
	});

	it('wrong passwords at the lock screen pause that tablet only, not the rep’s sign-in', async () => {
		// The service is never asked: no address is listening there.
		const ctx = testContext(database, 'http://127.0.0.1:9');
		const h = (await findHandover(database.db, keys, rules, at(340)))!;
		const unlock = (password: string, t: number) =>
			unlockHandover(ctx, h, { password, repSessionOpen: true }, meta, at(t));
		let paused = 0;
		for (let i = 0; i < 5; i++) {
			const wrong = await unlock(`guess ${i}`, 341 + i);
			expect(wrong).toEqual({
				ok: false,
				reason: 'invalid',
				left: 4 - i,
				...(i === 4 && { pausedSeconds: expect.any(Number) })
			});
			if (i === 4) paused = (wrong as { pausedSeconds: number }).pausedSeconds;
		}
		// Paused, for the right password too: the tablet waits out the sign-in's pause, as long as
		// the last wrong one said (five seconds on).
		expect(await unlock('pw pw pw pw pw pw', 350)).toEqual({
			ok: false,
			reason: 'locked',
			retryAfterSeconds: paused - 5
		});
		// Pressed again and again while paused: refused unread, so not guesses, and the counter's
		// address (an office's, shared by its reps) is not paused by them.
		for (let i = 0; i < 25; i++) {
			expect(await unlock(`guess again ${i}`, 351)).toMatchObject({ reason: 'locked' });
		}
		const signInRules = { maxFailures: 5, maxFailuresPerAddress: 20, lockoutMinutes: 15 };
		const samSignsIn = (from: typeof meta) =>
			signIn(
				database.db,
				signInRules,
				{ email: 'sam@example.com', password: 'pw pw pw pw pw pw' },
				from,
				at(351)
			);
		expect((await samSignsIn(meta)).ok).toBe(true);
		// The rep signs in on their own phone all the same.
		expect((await samSignsIn({ ip: '198.51.100.7', userAgent: 'phone' })).ok).toBe(true);
		// The hand-over is still there, locked, until the pause ends.
		expect((await findHandover(database.db, keys, rules, at(352)))?.endedAt).toBeNull();
		// The trail has each wrong password, from the device's address, down to the pause; not the
		// presses while it was paused, which were refused unread.
		const refused = (await trail()).filter((e) => e.type === 'device.unlock_refused');
		expect(refused).toEqual(
			[4, 3, 2, 1, 0].map((left, i) => ({
				type: 'device.unlock_refused',
				at: at(341 + i),
				channel: 'in_person',
				rep: h.repId,
				sessionId: keys.signingSessionId,
				ip: '203.0.113.5',
				data: { left }
			}))
		);
	});

	it('ends only by the unlock: then no key leads to it', async () => {
		const h = (await findHandover(database.db, keys, rules, at(400)))!;
		await endHandover(database.db, h, { repNo: 31, name: 'Sam Ortiz' }, meta, at(401));
		expect(await findHandover(database.db, keys, rules, at(402))).toBeUndefined();
		expect(
			(await resumeRepSession(database.db, repSecret, repRules, at(402)))?.handover
		).toBeNull();
		// Ending it again (a second tab's unlock) adds nothing.
		await endHandover(database.db, h, { repNo: 31, name: 'Sam Ortiz' }, meta, at(403));
		const events = await trail();
		expect(events.map((e) => e.type)).toEqual([
			'device.locked',
			...Array(5).fill('device.unlock_refused'),
			'device.unlocked'
		]);
		expect(events.at(-1)).toEqual({
			type: 'device.unlocked',
			at: at(401),
			channel: 'in_person',
			rep: h.repId,
			sessionId: keys.signingSessionId,
			ip: '203.0.113.5',
			data: { repNo: 31, repName: 'Sam Ortiz' }
		});
	});

	async function trail() {
		const events = await listAudit(database.db, 1207, 70001);
		return events.map(({ type, at, channel, rep, sessionId, ip, data }) => ({
			type,
			at,
			channel,
			rep,
			sessionId,
			ip,
			data
		}));
	}
});

describe('Hand to merchant, beside a colleague’s tablet', { timeout: 60_000 }, () => {
	const APP = 50002;
	let database: Database;
	let sandbox: SandboxServer;
	let ctx: AppContext;
	let sam: SignedInRep;
	let kim: SignedInRep;

	beforeAll(async () => {
		database = await openMemoryDatabase();
		sandbox = await startSandboxServer();
		ctx = testContext(database, sandbox.baseUrl);
		const signedIn = async (repNo: number, name: string) => {
			const email = `${name.toLowerCase()}@example.com`;
			await addRep(database.db, { officeId: 1207, repNo, email, name }, 'pw pw pw pw pw pw', T0);
			const [row] = (await database.db.select().from(schema.reps)).filter((r) => r.repNo === repNo);
			const secret = await createRepSession(database.db, row!.id, meta);
			return (await resumeRepSession(database.db, secret, { idleMinutes: 600, maxHours: 12 }))!.rep;
		};
		sam = await signedIn(31, 'Sam');
		kim = await signedIn(32, 'Kim');
	});
	afterAll(async () => {
		await sandbox?.close();
		await database?.close();
	});

	const give = (rep: SignedInRep, known?: string[], context = ctx) =>
		handOver(context, { rep, applicationId: APP, idType: null, idLast4: null, meta, known });
	const open = () => openHandovers(database.db, 1207, APP);
	const rows = (table: typeof schema.signingSessions | typeof schema.handovers) =>
		database.db.select().from(table);

	/** The context, with `step` run once as the hand-over asks the service for the application. */
	const meanwhile = (step: () => Promise<unknown>) => {
		let pending: (() => Promise<unknown>) | null = step;
		const onboarding = new Proxy(ctx.onboarding, {
			get(target, key) {
				const value = Reflect.get(target, key) as unknown;
				if (key !== 'listApplications' || typeof value !== 'function') return value;
				return async (...args: unknown[]) => {
					const run = pending;
					pending = null;
					await run?.();
					return value.apply(target, args);
				};
			}
		});
		return { ctx: { ...ctx, onboarding }, ran: () => pending === null };
	};

	it('does not take a tablet handed over after the page was judged, and writes nothing', async () => {
		// Kim's page was judged while no tablet was out; Sam hands one over meanwhile.
		const judged = (await open()).map((h) => h.id);
		expect(judged).toEqual([]);
		const first = await give(sam, judged);
		expect(first.ok).toBe(true);
		const trail = await listAudit(database.db, 1207, APP);
		const sessions = await rows(schema.signingSessions);
		const before = await rows(schema.handovers);
		expect(await give(kim, judged)).toEqual({ ok: false, reason: 'moved' });
		// Sam's tablet is still in the merchant's hands; nothing of Kim's hand-over was written.
		const [samsTablet] = await open();
		expect(samsTablet).toMatchObject({ repId: sam.id, lockedAt: null });
		expect(await rows(schema.handovers)).toEqual(before);
		expect(await rows(schema.signingSessions)).toEqual(sessions);
		expect(await listAudit(database.db, 1207, APP)).toEqual(trail);
	});

	it('takes the tablet the page showed: it locks, and the merchant goes on here', async () => {
		const [samsTablet] = await open();
		const taken = await give(kim, [samsTablet!.id]);
		expect(taken.ok).toBe(true);
		const [kimsTablet] = await open();
		expect(kimsTablet).toMatchObject({
			repId: kim.id,
			signingSessionId: samsTablet!.signingSessionId
		});
		const [locked] = await database.db
			.select()
			.from(schema.handovers)
			.where(eq(schema.handovers.id, samsTablet!.id));
		expect(locked).toMatchObject({ lockReason: 'moved', endedAt: null });
		const types = (await listAudit(database.db, 1207, APP)).map((e) => e.type);
		expect(types.slice(-2)).toEqual(['session.handed_over', 'device.locked']);
	});

	it('does not pick up a session that ended while it asked the service, and writes nothing', async () => {
		const [kimsTablet] = await open();
		// The merchant declines on Kim's tablet while Sam's hand-over waits for the service.
		const racing = meanwhile(() =>
			database.db
				.update(schema.signingSessions)
				.set({ declineId: randomUUID() })
				.where(eq(schema.signingSessions.id, kimsTablet!.signingSessionId))
		);
		const trail = await listAudit(database.db, 1207, APP);
		const before = await rows(schema.handovers);
		const taken = await give(sam, [kimsTablet!.id], racing.ctx);
		expect(racing.ran()).toBe(true);
		expect(taken).toEqual({ ok: false, reason: 'changed' });
		expect(await rows(schema.handovers)).toEqual(before);
		expect(await listAudit(database.db, 1207, APP)).toEqual(trail);
		// Its decline undone, for the test after: the session goes on as before.
		await database.db
			.update(schema.signingSessions)
			.set({ declineId: null })
			.where(eq(schema.signingSessions.id, kimsTablet!.signingSessionId));
	});

	it('picks up the session as it is when it writes, not as it was found', async () => {
		const [kimsTablet] = await open();
		const consentAt = new Date();
		// The merchant agrees to the terms on Kim's tablet while Sam's hand-over asks the service.
		const racing = meanwhile(() =>
			database.db
				.update(schema.signingSessions)
				.set({ consentAt })
				.where(eq(schema.signingSessions.id, kimsTablet!.signingSessionId))
		);
		const taken = await give(sam, [kimsTablet!.id], racing.ctx);
		expect(racing.ran()).toBe(true);
		// So the tablet is sent on to the step after the terms, not back to them.
		expect(taken).toMatchObject({ ok: true, session: { consentAt } });
	});

	it('without what the page knew (an older caller), takes whatever tablet is out', async () => {
		const [kimsTablet] = await open();
		expect((await give(sam)).ok).toBe(true);
		const [now] = await open();
		expect(now).toMatchObject({ repId: sam.id });
		expect(now!.id).not.toBe(kimsTablet!.id);
	});

	it('a disabled rep’s own password opens nothing, and is not in the trail as a wrong one', async () => {
		const [samsTablet] = await open();
		const locked = await lockHandover(database.db, samsTablet!, 'returned');
		await disableRep(database.db, 'sam@example.com');
		const trail = await listAudit(database.db, 1207, APP);
		const tried = await unlockHandover(
			ctx,
			locked,
			{ password: 'pw pw pw pw pw pw', repSessionOpen: true },
			meta
		);
		expect(tried).toMatchObject({ ok: false, reason: 'invalid', disabled: true });
		expect(await listAudit(database.db, 1207, APP)).toEqual(trail);
		// A wrong password is, all the same.
		await unlockHandover(ctx, locked, { password: 'not it', repSessionOpen: true }, meta);
		const after = await listAudit(database.db, 1207, APP);
		expect(after.map((e) => e.type)).toEqual([
			...trail.map((e) => e.type),
			'device.unlock_refused'
		]);
	});
});
