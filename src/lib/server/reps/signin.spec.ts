import { randomBytes, scryptSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMemoryDatabase, schema, type Database } from '$lib/server/db';
import { addRep, changeRepPassword, disableRep, setRepPassword } from './accounts';
import { endRepSession, resumeRepSession, whyRepSessionEnded } from './session';
import { isCurrentCost } from './password';
import { signIn, withPauseWarning, type SignInRules } from './signin';

const PASSWORD = 'correct horse battery staple';
const rules: SignInRules = { maxFailures: 3, maxFailuresPerAddress: 6, lockoutMinutes: 15 };
const sessions = { idleMinutes: 30, maxHours: 12 };
const meta = (ip = '203.0.113.5') => ({ ip, userAgent: 'vitest' });
const T0 = new Date('2026-03-10T15:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

describe('the warning before a pause', () => {
	it('says nothing while more than two tries are left, then counts down, then says it paused', () => {
		const say = (left: number) => withPauseWarning('Wrong.', { left }, rules, 'sign-in');
		expect(say(3)).toBe('Wrong.');
		expect(say(Infinity)).toBe('Wrong.');
		expect(say(2)).toBe('Wrong. Two more wrong tries, and sign-in pauses for up to 30 minutes.');
		expect(say(1)).toBe('Wrong. One more wrong try, and sign-in pauses for up to 30 minutes.');
		expect(say(0)).toBe(
			'Wrong. That was the last try: sign-in is paused now, for up to 30 minutes.'
		);
		expect(
			withPauseWarning('Wrong.', { left: 1 }, { ...rules, lockoutMinutes: 1 }, 'unlocking')
		).toBe('Wrong. One more wrong try, and unlocking pauses for up to 2 minutes.');
		// Once the pause's length is known, it is said as the next try will be told it.
		expect(withPauseWarning('Wrong.', { left: 0, pausedSeconds: 1601 }, rules, 'sign-in')).toBe(
			'Wrong. That was the last try: sign-in is paused now. Try again in 27 minutes.'
		);
	});
});

describe('rep sign-in and sessions', { timeout: 60_000 }, () => {
	let database: Database;
	beforeAll(async () => {
		database = await openMemoryDatabase();
		const add = (email: string, repNo: number) =>
			addRep(database.db, { officeId: 1207, repNo, email, name: `Rep ${repNo}` }, PASSWORD, T0);
		await Promise.all([
			add('sam@example.com', 31),
			add('lee@example.com', 32),
			add('kim@example.com', 33),
			add('pat@example.com', 34),
			add('ray@example.com', 35),
			add('iris@example.com', 36),
			add('val@example.com', 37)
		]);
	});
	afterAll(() => database.close());

	const attempt = (
		email: string,
		password: string,
		ip = '203.0.113.5',
		now = at(0),
		previous?: string
	) => signIn(database.db, rules, { email, password, previousSecret: previous }, meta(ip), now);

	it('signs in with the email in any case and the right password, into a new session each time', async () => {
		const first = await attempt('SAM@example.com ', PASSWORD, '198.51.100.1');
		expect(first.ok).toBe(true);
		const secret = (first as { secret: string }).secret;
		const rep = (await resumeRepSession(database.db, secret, sessions, at(1)))?.rep;
		expect(rep).toMatchObject({ email: 'sam@example.com', officeId: 1207, repNo: 31 });
		expect(JSON.stringify(rep)).not.toContain('scrypt');
		// Signing in again from the same browser: a new id, and the old session is over.
		const second = await attempt('sam@example.com', PASSWORD, '198.51.100.1', at(2), secret);
		const secret2 = (second as { secret: string }).secret;
		expect(secret2).not.toBe(secret);
		expect(await resumeRepSession(database.db, secret, sessions, at(3))).toBeUndefined();
		expect(await resumeRepSession(database.db, secret2, sessions, at(3))).toBeDefined();
		const rows = await database.db.select().from(schema.repSessions);
		expect(JSON.stringify(rows)).not.toContain(secret2);
	});

	it('gives one answer for a wrong password, an unknown email and a disabled account', async () => {
		await disableRep(database.db, 'ray@example.com', at(0));
		const answers = await Promise.all([
			attempt('lee@example.com', 'not the password at all', '198.51.100.2'),
			attempt('nobody@example.com', PASSWORD, '198.51.100.3'),
			attempt('ray@example.com', 'not the password at all', '198.51.100.4')
		]);
		// The same tries left too: the count is by the email typed, known or not.
		expect(answers).toEqual([
			{ ok: false, reason: 'invalid', left: 2 },
			{ ok: false, reason: 'invalid', left: 2 },
			{ ok: false, reason: 'invalid', left: 2 }
		]);
		// The disabled account's own password learns that it is disabled, and no more.
		expect(await attempt('ray@example.com', PASSWORD, '198.51.100.5')).toEqual({
			ok: false,
			reason: 'invalid',
			left: 1,
			disabled: true
		});
	});

	it('takes no other spelling of a locked email that the database would fold onto it (İ for i)', async () => {
		for (let i = 0; i < rules.maxFailures; i++) {
			expect(
				(await attempt('iris@example.com', 'wrong password here', `192.0.2.${i + 40}`)).ok
			).toBe(false);
		}
		expect(await attempt('iris@example.com', PASSWORD, '192.0.2.50')).toMatchObject({
			reason: 'locked'
		});
		// PostgreSQL's lower() (and PGlite's) makes İ an i; JavaScript's toLowerCase() makes it i and
		// a combining dot, so these were counted apart from the account's own email, and each had
		// its own five guesses at its password.
		for (const spelling of ['İris@example.com', 'irİs@example.com', 'İrİs@example.com']) {
			expect(await attempt(spelling, PASSWORD, '192.0.2.51')).toEqual({
				ok: false,
				reason: 'invalid',
				left: 2
			});
		}
	});

	it('locks an email after repeated failures, known or not, through the window after theirs', async () => {
		for (const email of ['kim@example.com', 'ghost@example.com']) {
			for (let i = 0; i < rules.maxFailures; i++) {
				const wrong = await attempt(email, 'wrong password here', `192.0.2.${i + 10}`, at(1));
				expect(wrong.ok).toBe(false);
				// The last says how long the pause it starts lasts: the wait the next try is told.
				if (i === rules.maxFailures - 1) expect(wrong).toMatchObject({ pausedSeconds: 29 * 60 });
			}
			// Even the right password is not looked at while locked.
			const locked = await attempt(email, PASSWORD, '192.0.2.99', at(2));
			// The failures count in this window (13 more minutes) and in the next (15).
			expect(locked).toEqual({ ok: false, reason: 'locked', retryAfterSeconds: 28 * 60 });
		}
		expect(await attempt('kim@example.com', PASSWORD, '192.0.2.99', at(15))).toEqual({
			ok: false,
			reason: 'locked',
			retryAfterSeconds: 15 * 60
		});
		// Once they have left both windows, the right password works.
		expect((await attempt('kim@example.com', PASSWORD, '192.0.2.99', at(30))).ok).toBe(true);
		// Counted by a hash: what was typed as the email is not kept as typed, in any case.
		const keys = (await database.db.select().from(schema.rateLimits)).map((r) => r.key);
		expect(keys.some((k) => k.startsWith('rep-signin:email:'))).toBe(true);
		expect(keys.join(' ').toLowerCase()).not.toContain('ghost');
	});

	it('locks a run of failures across a window’s edge, and trying while locked keeps it no longer', async () => {
		// Two wrong passwords just before 15:45, where a window ends, and one just after: three in
		// a row lock it, as three within one window do.
		// Each says how many tries are left before the pause, the last that there are none.
		const tries: [number, number][] = [
			[44, 2],
			[44, 1],
			[46, 0]
		];
		for (const [minute, left] of tries) {
			expect(
				await attempt('val@example.com', 'wrong password here', '198.51.100.40', at(minute))
			).toEqual({
				ok: false,
				reason: 'invalid',
				left,
				...(left === 0 && { pausedSeconds: 14 * 60 })
			});
		}
		expect(await attempt('val@example.com', PASSWORD, '198.51.100.41', at(46))).toEqual({
			ok: false,
			reason: 'locked',
			retryAfterSeconds: 14 * 60
		});
		// Tried again and again while locked: the lock ends when it said.
		for (let i = 0; i < 5; i++) {
			expect(await attempt('val@example.com', PASSWORD, '198.51.100.42', at(50))).toMatchObject({
				ok: false,
				reason: 'locked'
			});
		}
		expect(await attempt('val@example.com', PASSWORD, '198.51.100.43', at(60))).toMatchObject({
			ok: true
		});
	});

	it('locks an address that tries many emails, and a success takes back only its own count', async () => {
		const ip = '192.0.2.200';
		expect((await attempt('pat@example.com', PASSWORD, ip, at(16))).ok).toBe(true);
		// Each email is new, with two tries left of its own; the address's pause comes first, and
		// the last two say so (an office behind one address shares it).
		const left = [2, 2, 2, 2, 1, 0];
		for (let i = 0; i < rules.maxFailuresPerAddress; i++) {
			expect(await attempt(`guess${i}@example.com`, 'wrong password here', ip, at(16))).toEqual({
				ok: false,
				reason: 'invalid',
				left: left[i],
				// The address's pause, starting in a window with 14 minutes left: through the next.
				...(left[i] === 0 && { pausedSeconds: 29 * 60 })
			});
		}
		expect(await attempt('pat@example.com', PASSWORD, ip, at(17))).toMatchObject({
			ok: false,
			reason: 'locked'
		});
		expect((await attempt('pat@example.com', PASSWORD, '192.0.2.201', at(17))).ok).toBe(true);
	});

	it('clears an account’s failures when the right password comes', async () => {
		for (let i = 0; i < rules.maxFailures - 1; i++) {
			await attempt('lee@example.com', 'wrong password here', '198.51.100.9', at(31));
		}
		expect((await attempt('lee@example.com', PASSWORD, '198.51.100.9', at(31))).ok).toBe(true);
		await attempt('lee@example.com', 'wrong password here', '198.51.100.9', at(32));
		expect((await attempt('lee@example.com', PASSWORD, '198.51.100.9', at(32))).ok).toBe(true);
	});

	it('makes a hash of an older cost again at the next sign-in, and the password still works', async () => {
		// kim's hash as the portal made it before its cost changed: scrypt N=2^17, r=8, p=1.
		const salt = randomBytes(16);
		const N = 2 ** 17;
		const key = scryptSync(PASSWORD, salt, 32, { N, r: 8, p: 1, maxmem: 256 * 1024 * 1024 });
		const old = ['scrypt', 17, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
		await database.db
			.update(schema.reps)
			.set({ passwordHash: old })
			.where(eq(schema.reps.email, 'kim@example.com'));
		const stored = async () =>
			(
				await database.db
					.select({ hash: schema.reps.passwordHash })
					.from(schema.reps)
					.where(eq(schema.reps.email, 'kim@example.com'))
			)[0]!.hash;

		expect((await attempt('kim@example.com', 'not the password at all', '198.51.100.60')).ok).toBe(
			false
		);
		expect(await stored()).toBe(old);
		expect((await attempt('kim@example.com', PASSWORD, '198.51.100.60', at(40))).ok).toBe(true);
		const upgraded = await stored();
		expect(upgraded).not.toBe(old);
		expect(isCurrentCost(upgraded)).toBe(true);
		expect((await attempt('kim@example.com', PASSWORD, '198.51.100.60', at(41))).ok).toBe(true);
		expect(await stored()).toBe(upgraded);
	});

	describe('sessions', () => {
		const start = async (now: Date) => {
			const r = await attempt('sam@example.com', PASSWORD, '198.51.100.50', now);
			return (r as { secret: string }).secret;
		};

		it('end after the idle time, and activity keeps them going', async () => {
			const secret = await start(at(60));
			expect(await resumeRepSession(database.db, secret, sessions, at(89))).toBeDefined();
			expect(await resumeRepSession(database.db, secret, sessions, at(118))).toBeDefined();
			expect(await resumeRepSession(database.db, secret, sessions, at(149))).toBeUndefined();
			// Why, for the sign-in page, and whose: idle; nothing while it is open; nothing for no session.
			const [sam] = await database.db
				.select({ id: schema.reps.id })
				.from(schema.reps)
				.where(eq(schema.reps.email, 'sam@example.com'));
			expect(await whyRepSessionEnded(database.db, secret, sessions, at(149))).toEqual({
				reason: 'idle',
				repId: sam!.id,
				officeId: 1207
			});
			expect(await whyRepSessionEnded(database.db, secret, sessions, at(119))).toBeNull();
			expect(await whyRepSessionEnded(database.db, 'x'.repeat(43), sessions)).toBeNull();
		});

		it('are not kept going by a page refreshing itself while nobody uses it', async () => {
			const secret = await start(at(400));
			const unattended = { ...sessions, unattended: true };
			// Polled every few minutes for longer than the idle time: read each time, never renewed.
			for (let m = 405; m < 430; m += 5) {
				expect(await resumeRepSession(database.db, secret, unattended, at(m))).toBeDefined();
			}
			expect(await resumeRepSession(database.db, secret, unattended, at(431))).toBeUndefined();
			// The rep's own request in time is activity.
			const again = await start(at(500));
			await resumeRepSession(database.db, again, unattended, at(520));
			expect(await resumeRepSession(database.db, again, sessions, at(525))).toBeDefined();
			expect(await resumeRepSession(database.db, again, unattended, at(550))).toBeDefined();
		});

		it('end at the absolute limit however active', async () => {
			const secret = await start(at(200));
			for (let m = 220; m < 200 + 12 * 60; m += 25) {
				expect(await resumeRepSession(database.db, secret, sessions, at(m))).toBeDefined();
			}
			expect(
				await resumeRepSession(database.db, secret, sessions, at(200 + 12 * 60 + 1))
			).toBeUndefined();
			expect(
				(await whyRepSessionEnded(database.db, secret, sessions, at(200 + 12 * 60 + 1)))?.reason
			).toBe('max');
		});

		it('write activity at most once a minute', async () => {
			const secret = await start(at(1000));
			await resumeRepSession(database.db, secret, sessions, at(1000.5));
			const [row] = await database.db
				.select({ lastSeenAt: schema.repSessions.lastSeenAt })
				.from(schema.repSessions)
				.orderBy(schema.repSessions.createdAt)
				.where(eq(schema.repSessions.createdAt, at(1000)));
			expect(row!.lastSeenAt).toEqual(at(1000));
			await resumeRepSession(database.db, secret, sessions, at(1002));
			const [after] = await database.db
				.select({ lastSeenAt: schema.repSessions.lastSeenAt })
				.from(schema.repSessions)
				.where(eq(schema.repSessions.createdAt, at(1000)));
			expect(after!.lastSeenAt).toEqual(at(1002));
		});

		it('end on sign-out, on a new password and when the account is disabled', async () => {
			const a = await start(at(2000));
			await endRepSession(database.db, a, at(2001));
			expect(await resumeRepSession(database.db, a, sessions, at(2002))).toBeUndefined();

			expect((await whyRepSessionEnded(database.db, a, sessions, at(2002)))?.reason).toBe('closed');

			const b = await start(at(2000));
			await setRepPassword(database.db, 'sam@example.com', 'another long pass phrase', at(2001));
			expect(await resumeRepSession(database.db, b, sessions, at(2002))).toBeUndefined();
			expect((await whyRepSessionEnded(database.db, b, sessions, at(2002)))?.reason).toBe(
				'password'
			);
			expect((await attempt('sam@example.com', PASSWORD, '198.51.100.50', at(2003))).ok).toBe(
				false
			);
			const c = (
				(await signIn(
					database.db,
					rules,
					{ email: 'sam@example.com', password: 'another long pass phrase' },
					meta('198.51.100.50'),
					at(2004)
				)) as { secret: string }
			).secret;
			await disableRep(database.db, 'sam@example.com', at(2005));
			expect(await resumeRepSession(database.db, c, sessions, at(2006))).toBeUndefined();
			expect((await whyRepSessionEnded(database.db, c, sessions, at(2006)))?.reason).toBe(
				'disabled'
			);
		});

		it('on a rep’s own change of password, end everywhere but where it was changed', async () => {
			const signInLee = async (password: string, ip: string, now: Date) =>
				signIn(database.db, rules, { email: 'lee@example.com', password }, meta(ip), now);
			const here = ((await signInLee(PASSWORD, '198.51.100.70', at(3000))) as { secret: string })
				.secret;
			const elsewhere = (
				(await signInLee(PASSWORD, '198.51.100.71', at(3000))) as { secret: string }
			).secret;
			const rep = (await resumeRepSession(database.db, here, sessions, at(3001)))!.rep;
			const changed = await changeRepPassword(database.db, rep, 'a new long pass phrase', at(3002));
			expect(changed?.passwordChangedAt).toEqual(at(3002));
			expect(await resumeRepSession(database.db, here, sessions, at(3003))).toBeDefined();
			expect(await resumeRepSession(database.db, elsewhere, sessions, at(3003))).toBeUndefined();
			expect((await signInLee(PASSWORD, '198.51.100.72', at(3004))).ok).toBe(false);
			expect((await signInLee('a new long pass phrase', '198.51.100.72', at(3005))).ok).toBe(true);
			// Disabled meanwhile: nothing changes.
			const [ray] = await database.db
				.select()
				.from(schema.reps)
				.where(eq(schema.reps.email, 'ray@example.com'));
			const before = ray!.passwordHash;
			const none = await changeRepPassword(
				database.db,
				{ id: ray!.id, sessionId: rep.sessionId },
				'a new long pass phrase',
				at(3006)
			);
			expect(none).toBeUndefined();
			const [after] = await database.db
				.select()
				.from(schema.reps)
				.where(eq(schema.reps.email, 'ray@example.com'));
			expect(after!.passwordHash).toBe(before);
		});

		it('know nothing of malformed or unknown cookies', async () => {
			expect(await resumeRepSession(database.db, undefined, sessions)).toBeUndefined();
			expect(await resumeRepSession(database.db, 'x'.repeat(43), sessions)).toBeUndefined();
			expect(await resumeRepSession(database.db, "' or 1=1 --", sessions)).toBeUndefined();
		});
	});
});
