import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listAudit } from '$lib/server/audit/audit';
import { loadFacts } from '$lib/server/console/facts';
import { revokeLink } from '$lib/server/console/links';
import { stateRules } from '$lib/server/console/list';
import { deriveState } from '$lib/server/console/state';
import { identityAttempts, mailOutbox, signingSessions } from '$lib/server/db/schema';
import { createLink } from '$lib/server/links/links';
import { mailStatusFor } from '$lib/server/mail/status';
import type { ApplicationListItem } from '$lib/server/onboarding';
import type { SignedInRep } from '$lib/server/reps/session';
import { createSession, findSession, resumeSession } from '$lib/server/signing/session';
import { startTestApp, testSessionInput } from '$lib/server/testing/app';
import {
	closeAbandonedTries,
	identityState,
	identityView,
	judgePass,
	startAttempt,
	submitAnswers,
	type OpenAttempt
} from './attempts';

const meta = { ip: '127.0.0.1', userAgent: 'vitest' };

describe('an earlier pass, judged for a new session (judgePass)', () => {
	const inPerson = { linkId: null, email: null };
	const onLink = { linkId: 'link-a', email: 'dana@example.com' };

	it('carries in person always, and to a link of the same address', () => {
		expect(judgePass([onLink], null, null, 'in_person')).toEqual({
			kind: 'carries',
			linkId: 'link-a'
		});
		expect(judgePass([onLink], 'link-b', 'DANA@example.com ', 'link')).toEqual({
			kind: 'carries',
			linkId: 'link-a'
		});
	});

	it('says whether a pass it refuses was made in person, where no link carries it', () => {
		expect(judgePass([inPerson], 'link-b', 'dana@example.com', 'link')).toEqual({
			kind: 'refused',
			email: null,
			inPerson: true
		});
		expect(judgePass([inPerson, onLink], 'link-b', 'other@example.com', 'link')).toEqual({
			kind: 'refused',
			email: 'dana@example.com',
			inPerson: false
		});
		expect(judgePass([], 'link-b', null, 'link')).toEqual({ kind: 'none' });
	});
});

describe('identity attempts against the sandbox', () => {
	let t: Awaited<ReturnType<typeof startTestApp>>;
	beforeAll(async () => {
		t = await startTestApp();
	});
	afterAll(() => t.close());
	beforeEach(async () => {
		await t.control('POST', 'reset');
	});

	async function open(s: Awaited<ReturnType<typeof t.session>>): Promise<OpenAttempt> {
		expect((await startAttempt(t.ctx, s, meta)).result).toBe('started');
		const state = await identityState(t.ctx, s, meta);
		expect(state.open).toBeDefined();
		return state.open!;
	}

	async function rightAnswers(o: OpenAttempt) {
		const r = await t.control('GET', `answers/${o.questions.QuestionSetID}`);
		expect(r.status).toBe(200);
		return r.body.Answers as { QuestionID: number; ChoiceID: number }[];
	}

	function wrong(o: OpenAttempt, right: { QuestionID: number; ChoiceID: number }[]) {
		return o.questions.Questions.map((q) => {
			const good = right.find((a) => String(a.QuestionID) === String(q.QuestionID))!.ChoiceID;
			const bad = q.Choices.find((c) => String(c.ChoiceID) !== String(good))!;
			return { QuestionID: q.QuestionID, ChoiceID: bad.ChoiceID };
		});
	}

	it('passes with the right answers and records the session as verified', async () => {
		const s = await t.session(50001);
		const o = await open(s);
		expect(o.questions.Questions).toHaveLength(5);
		expect((await submitAnswers(t.ctx, s, o, await rightAnswers(o), meta)).result).toBe('passed');
		const [row] = await t.ctx.db.select().from(signingSessions).where(eq(signingSessions.id, s.id));
		expect(row!.identityPassedAt).toBeInstanceOf(Date);
		const [attempt] = await t.ctx.db
			.select()
			.from(identityAttempts)
			.where(eq(identityAttempts.sessionId, s.id));
		expect(attempt!.outcome).toBe('passed');
		expect(attempt!.questionsEnc).toBeNull();
		const types = (await listAudit(t.ctx.db, 1207, 50001)).map((e) => e.type);
		expect(types).toEqual(['identity.started', 'identity.passed']);
	});

	it('fails, offers a fresh set, then locks after the second failure across sessions', async () => {
		const s1 = await t.session(50002);
		const o1 = await open(s1);
		expect(
			(await submitAnswers(t.ctx, s1, o1, wrong(o1, await rightAnswers(o1)), meta)).result
		).toBe('failed');
		let state = await identityState(t.ctx, s1, meta);
		expect(state).toMatchObject({ failures: 1, attemptsLeft: 1, locked: false, last: 'failed' });

		// A second link or device for the same application shares the count.
		const s2 = await t.session(50002);
		const o2 = await open(s2);
		expect(o2.questions.QuestionSetID).not.toBe(o1.questions.QuestionSetID);
		expect(
			(await submitAnswers(t.ctx, s2, o2, wrong(o2, await rightAnswers(o2)), meta)).result
		).toBe('failed');
		state = await identityState(t.ctx, s1, meta);
		// s1's own try did not lock: its notice does not say its answers were what locked it.
		expect(state).toMatchObject({
			failures: 2,
			attemptsLeft: 0,
			locked: true,
			lockedByLast: false
		});
		expect(await identityState(t.ctx, s2, meta)).toMatchObject({
			locked: true,
			last: 'failed',
			lockedByLast: true
		});
		expect((await startAttempt(t.ctx, s1, meta)).result).toBe('locked');
		const types = (await listAudit(t.ctx.db, 1207, 50002)).map((e) => e.type);
		expect(types.filter((x) => x === 'identity.failed')).toHaveLength(2);
		expect(types.at(-1)).toBe('identity.locked');
		// The rep is told once, however often the merchant runs into the lock.
		expect((await startAttempt(t.ctx, s2, meta)).result).toBe('locked');
		const notes = (await mailStatusFor(t.ctx.db, 1207, 50002)).filter(
			(m) => m.kind === 'note.locked'
		);
		expect(notes).toHaveLength(1);
	});

	it('counts an answer after the time limit as a failed try, without asking the bureau', async () => {
		const s = await t.session(50003);
		const o = await open(s);
		const late = new Date(o.attempt.deadlineAt.getTime() + 10_000);
		expect((await submitAnswers(t.ctx, s, o, await rightAnswers(o), meta, late)).result).toBe(
			'late'
		);
		const state = await identityState(t.ctx, s, meta);
		expect(state).toMatchObject({ failures: 1, last: 'late', open: undefined });
	});

	it('answers the bureau finds past its time limit are late, not wrong (410)', async () => {
		await t.ctx.db.delete(identityAttempts).where(eq(identityAttempts.applicationId, 50001));
		expect((await t.control('PUT', 'settings', { timeLimitSeconds: 1 })).status).toBeLessThan(300);
		const s = await t.session(50001);
		const o = await open(s);
		const right = await rightAnswers(o);
		// Past the bureau's second, within the grace the portal allows past its own deadline.
		await new Promise((resolve) => setTimeout(resolve, 1_300));
		expect((await submitAnswers(t.ctx, s, o, right, meta)).result).toBe('late');
		const sent = await t.control('GET', 'requests?operation=answerset');
		expect(sent.body, 'the answers went to the bureau').toHaveLength(1);
		expect(await identityState(t.ctx, s, meta)).toMatchObject({ failures: 1, last: 'late' });
		const failed = (await listAudit(t.ctx.db, 1207, 50001)).filter(
			(e) => e.type === 'identity.failed'
		);
		expect(failed.at(-1)?.data).toMatchObject({ reason: 'time limit passed' });
		// The later tests of 50001 start with no try used.
		await t.ctx.db.delete(identityAttempts).where(eq(identityAttempts.applicationId, 50001));
	});

	it('closes a set left past its time limit as late when the step is viewed, and counts it once', async () => {
		// 50002 was locked by an earlier test: its tries are forgotten here, as the window would.
		await t.ctx.db.delete(identityAttempts).where(eq(identityAttempts.applicationId, 50002));
		const failed = async () =>
			(await listAudit(t.ctx.db, 1207, 50002)).filter((e) => e.type === 'identity.failed').length;
		const failedBefore = await failed();
		const s = await t.session(50002);
		const o = await open(s);
		const late = new Date(o.attempt.deadlineAt.getTime() + 10_000);
		expect((await identityView(t.ctx, s, meta, late)).state).toMatchObject({
			failures: 1,
			attemptsLeft: 1,
			last: 'late',
			open: undefined
		});
		// Closed now: a later view counts the same one try, and records no second failure.
		expect((await identityView(t.ctx, s, meta, late)).state).toMatchObject({
			failures: 1,
			attemptsLeft: 1,
			last: 'late'
		});
		expect(await failed()).toBe(failedBefore + 1);
	});

	it('the worker closes a set left on the screen, and records the lock then, not when the merchant returns', async () => {
		// 50002 was locked by an earlier test: its tries and the rep's note are forgotten here.
		await t.ctx.db.delete(identityAttempts).where(eq(identityAttempts.applicationId, 50002));
		await t.ctx.db.delete(mailOutbox).where(eq(mailOutbox.applicationId, 50002));
		const events = async (type: string) =>
			(await listAudit(t.ctx.db, 1207, 50002)).filter((e) => e.type === type).length;
		const [failedBefore, lockedBefore] = [
			await events('identity.failed'),
			await events('identity.locked')
		];
		const s = await t.session(50002);
		const first = await open(s);
		await submitAnswers(t.ctx, s, first, wrong(first, await rightAnswers(first)), meta);
		const o = await open(s);
		// Within the time and its grace the sweep leaves it open.
		expect(await closeAbandonedTries(t.ctx, new Date(o.attempt.deadlineAt.getTime() + 1_000))).toBe(
			0
		);
		const late = new Date(o.attempt.deadlineAt.getTime() + 10_000);
		expect(await closeAbandonedTries(t.ctx, late)).toBe(1);
		const [row] = await t.ctx.db
			.select()
			.from(identityAttempts)
			.where(eq(identityAttempts.id, o.attempt.id));
		expect(row).toMatchObject({ outcome: 'late', questionsEnc: null });
		expect(await events('identity.failed')).toBe(failedBefore + 2);
		expect(await events('identity.locked')).toBe(lockedBefore + 1);
		// The sweep's events say the portal closed the set; the merchant's own failure does not.
		const trail = await listAudit(t.ctx.db, 1207, 50002);
		const [swept, locked] = [trail.at(-2)!, trail.at(-1)!];
		expect(swept).toMatchObject({ type: 'identity.failed', ip: null });
		expect(swept.data).toMatchObject({ reason: 'time limit passed', closedBy: 'portal' });
		expect(locked).toMatchObject({ type: 'identity.locked' });
		expect(locked.data).toMatchObject({ closedBy: 'portal' });
		const own = trail.filter((e) => e.type === 'identity.failed').at(-2)!;
		expect(own.data).not.toHaveProperty('closedBy');
		const notes = async () =>
			(await mailStatusFor(t.ctx.db, 1207, 50002)).filter((m) => m.kind === 'note.locked');
		expect(await notes()).toHaveLength(1);
		// The merchant comes back to the lock; nothing is recorded twice, and a second sweep finds
		// nothing to close.
		const later = new Date(late.getTime() + 60_000);
		expect((await identityView(t.ctx, s, meta, later)).state).toMatchObject({
			locked: true,
			last: 'late',
			lockedByLast: true,
			open: undefined
		});
		expect(await closeAbandonedTries(t.ctx, later)).toBe(0);
		expect(await events('identity.failed')).toBe(failedBefore + 2);
		expect(await events('identity.locked')).toBe(lockedBefore + 1);
		expect(await notes()).toHaveLength(1);
	});

	it('locks for a full day from the try that reached the limit: on the merchant’s page, in the trail and on the console alike', async () => {
		await t.ctx.db.delete(identityAttempts).where(eq(identityAttempts.applicationId, 50002));
		await t.ctx.db.delete(mailOutbox).where(eq(mailOutbox.applicationId, 50002));
		const s = await t.session(50002);
		const fail = async (at: Date) => {
			expect((await startAttempt(t.ctx, s, meta, at)).result).toBe('started');
			const o = (await identityState(t.ctx, s, meta, at)).open!;
			const judged = new Date(at.getTime() + 30_000);
			const answers = wrong(o, await rightAnswers(o));
			expect((await submitAnswers(t.ctx, s, o, answers, meta, judged)).result).toBe('failed');
			return judged;
		};
		const hour = 3_600_000;
		await fail(new Date(Date.now() - 20 * hour));
		const until = new Date((await fail(new Date())).getTime() + 24 * hour);
		const consoleAt = async (now: Date) => {
			const facts = (await loadFacts(t.ctx.db, 1207, [50002])).get(50002)!;
			return deriveState({ ...facts, serviceStatus: 'Pending Signature' }, stateRules(t.ctx), now);
		};
		// Five hours on, the first try's day is over; the lock is not.
		const fiveHoursOn = new Date(until.getTime() - 19 * hour);
		expect(await identityState(t.ctx, s, meta, fiveHoursOn)).toMatchObject({
			locked: true,
			attemptsLeft: 0,
			lockLiftsAt: until
		});
		// The newest: earlier tests locked 50002 too.
		const locked = (await listAudit(t.ctx.db, 1207, 50002))
			.filter((e) => e.type === 'identity.locked')
			.at(-1);
		expect(locked!.data).toMatchObject({ until: until.toISOString() });
		expect(await consoleAt(fiveHoursOn)).toMatchObject({ kind: 'identity_locked', until });
		// A second after it lifts, both tries have left the window.
		const lifted = new Date(until.getTime() + 1_000);
		expect(await identityState(t.ctx, s, meta, lifted)).toMatchObject({
			locked: false,
			attemptsLeft: 2,
			lockLiftsAt: null
		});
		expect((await consoleAt(lifted)).kind).not.toBe('identity_locked');
	});

	it('a rep’s Revoke closes the questions open on the link at once, as a try spent, in the rep’s name', async () => {
		await t.ctx.db.delete(identityAttempts).where(eq(identityAttempts.applicationId, 50003));
		const { link } = await createLink(t.ctx.db, {
			officeId: 1207,
			applicationId: 50003,
			email: 'dana@example.com',
			createdBy: 'rep:x',
			ttlHours: 24,
			meta
		});
		const onLink = await t.session(50003, 1207, link.id);
		const o = await open(onLink);
		const rep = {
			id: randomUUID(),
			officeId: 1207,
			repNo: 31,
			name: 'Sam Ortiz',
			email: 's@x.example'
		};
		const action = {
			rep: rep as SignedInRep,
			application: { ApplicationID: 50003 } as unknown as ApplicationListItem,
			meta: { ip: '10.0.0.9', userAgent: 'rep tablet' }
		};
		expect(await revokeLink(t.ctx, { ...action, shown: link.id })).toBe('revoked');
		const [row] = await t.ctx.db
			.select()
			.from(identityAttempts)
			.where(eq(identityAttempts.id, o.attempt.id));
		expect(row).toMatchObject({ outcome: 'late', questionsEnc: null });
		const failed = (await listAudit(t.ctx.db, 1207, 50003))
			.filter((e) => e.type === 'identity.failed')
			.at(-1)!;
		expect(failed).toMatchObject({
			rep: 'Sam Ortiz (rep 31, s@x.example)',
			ip: '10.0.0.9',
			sessionId: onLink.id,
			data: { reason: 'link revoked', by: `rep:${rep.id}` }
		});
		// The next session counts it, and nothing is open: Start starts.
		const next = await t.session(50003);
		expect(await identityState(t.ctx, next, meta)).toMatchObject({
			failures: 1,
			attemptsLeft: 1,
			open: undefined
		});
		expect((await startAttempt(t.ctx, next, meta)).result).toBe('started');
		// A second Revoke finds nothing to revoke or close, from that page or any.
		expect(await revokeLink(t.ctx, { ...action, shown: link.id })).toBe('none');
		expect(await revokeLink(t.ctx, action)).toBe('none');
		await t.ctx.db.delete(identityAttempts).where(eq(identityAttempts.applicationId, 50003));
	});

	it('spends no try when the bureau is down', async () => {
		const s = await t.session(50006);
		expect((await startAttempt(t.ctx, s, meta)).result).toBe('unavailable');
		const state = await identityState(t.ctx, s, meta);
		expect(state).toMatchObject({ failures: 0, attemptsLeft: 2, open: undefined });
	});

	it('spends no try when the bureau fails while answering', async () => {
		const s = await t.session(50001);
		const o = await open(s);
		expect((await t.control('PUT', 'faults/answerset', { status: 503 })).status).toBeLessThan(300);
		expect((await submitAnswers(t.ctx, s, o, await rightAnswers(o), meta)).result).toBe(
			'unavailable'
		);
		await t.control('DELETE', 'faults');
		expect(await identityState(t.ctx, s, meta)).toMatchObject({ failures: 0, attemptsLeft: 2 });
	});

	it('lets a later session on the same link carry on, but not one on another link', async () => {
		const link = randomUUID();
		const first = await t.session(50001, 1207, link);
		const o = await open(first);
		expect((await submitAnswers(t.ctx, first, o, await rightAnswers(o), meta)).result).toBe(
			'passed'
		);

		// The service now answers 409 "already verified" to any new question-set request.
		const sameLink = await t.session(50001, 1207, link);
		expect((await startAttempt(t.ctx, sameLink, meta)).result).toBe('verified');
		const otherLink = await t.session(50001, 1207, randomUUID());
		expect((await startAttempt(t.ctx, otherLink, meta)).result).toBe('elsewhere');
		const [row] = await t.ctx.db
			.select()
			.from(signingSessions)
			.where(eq(signingSessions.id, otherLink.id));
		expect(row!.identityPassedAt).toBeNull();
	});

	it('shows an earlier pass on the identity step as Start will judge it: in person it carries', async () => {
		const link = randomUUID();
		const first = await t.session(50003, 1207, link);
		expect((await identityView(t.ctx, first, meta)).earlier).toEqual({ kind: 'none' });
		const o = await open(first);
		expect((await submitAnswers(t.ctx, first, o, await rightAnswers(o), meta)).result).toBe(
			'passed'
		);

		const sameLink = await t.session(50003, 1207, link);
		const otherLink = await t.session(50003, 1207, randomUUID());
		const { session: inPerson } = await createSession(t.ctx.db, {
			...testSessionInput(50003),
			channel: 'in_person'
		});
		expect((await identityView(t.ctx, sameLink, meta)).earlier).toEqual({
			kind: 'carries',
			linkId: link
		});
		expect((await identityView(t.ctx, otherLink, meta)).earlier.kind).toBe('refused');
		// The rep beside the merchant checked their photo ID: the page offers to continue, and
		// Start carries the pass, where the page once said "this link can't confirm" (there is
		// no link).
		expect((await identityView(t.ctx, inPerson, meta)).earlier).toEqual({
			kind: 'carries',
			linkId: link
		});
		expect((await startAttempt(t.ctx, inPerson, meta)).result).toBe('verified');
		expect((await startAttempt(t.ctx, otherLink, meta)).result).toBe('elsewhere');
		// The view counts the application's tries (failed or late, from any session; a pass is none).
		const tries = (
			await t.ctx.db
				.select({ outcome: identityAttempts.outcome })
				.from(identityAttempts)
				.where(eq(identityAttempts.applicationId, 50003))
		).filter((a) => a.outcome === 'failed' || a.outcome === 'late').length;
		expect((await identityView(t.ctx, sameLink, meta)).state).toMatchObject({
			failures: tries,
			attemptsLeft: 2 - tries,
			locked: false,
			open: undefined,
			last: undefined
		});
	});

	it('never stores the answers', async () => {
		const s = await t.session(50001);
		const o = await open(s);
		const right = await rightAnswers(o);
		await submitAnswers(t.ctx, s, o, right, meta);
		// Ids, hashes, ciphertext and times are random or machine-made: a birth year such as
		// "1981" can turn up inside one by chance. Search what is left, the words and values.
		const dump = JSON.stringify([
			await t.ctx.db.select().from(identityAttempts),
			await listAudit(t.ctx.db, 1207, 50001)
		])
			.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '')
			.replace(/[0-9a-f]{16,}/g, '')
			.replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, '');
		for (const q of o.questions.Questions) {
			const chosen = q.Choices.find((c) =>
				right.some(
					(a) =>
						String(a.ChoiceID) === String(c.ChoiceID) &&
						String(a.QuestionID) === String(q.QuestionID)
				)
			);
			if (chosen && chosen.Text !== 'NONE OF THE ABOVE') expect(dump).not.toContain(chosen.Text);
		}
	});

	it('keeps one open attempt per application: another session starting meanwhile is told to wait', async () => {
		const first = await t.session(50005);
		const second = await t.session(50005);
		const both = await Promise.all([
			startAttempt(t.ctx, first, meta),
			startAttempt(t.ctx, second, meta)
		]);
		expect(both.map((r) => r.result).sort()).toEqual(['busy', 'started']);
		// Once the open one is answered, the other may start.
		const [owner, other] = both[0]!.result === 'started' ? [first, second] : [second, first];
		const { open: o } = await identityState(t.ctx, owner, meta);
		await submitAnswers(t.ctx, owner, o!, wrong(o!, await rightAnswers(o!)), meta);
		expect((await startAttempt(t.ctx, other, meta)).result).toBe('started');
	});

	it('forwards an attempt’s answers once, however often they are posted', async () => {
		const s = await t.session(50003);
		const o = await open(s);
		const right = await rightAnswers(o);
		const results = await Promise.all([
			submitAnswers(t.ctx, s, o, right, meta),
			submitAnswers(t.ctx, s, o, right, meta),
			submitAnswers(t.ctx, s, o, right, meta)
		]);
		expect(results.map((r) => r.result).sort()).toEqual(['none', 'none', 'passed']);
		const sent = await t.control('GET', 'requests?operation=answerset');
		expect(sent.body).toHaveLength(1);
	});

	it('replaces the session’s secret when identity passes', async () => {
		const { secret, session: s } = await createSession(t.ctx.db, testSessionInput(50001));
		const o = await open(s);
		const passed = await submitAnswers(t.ctx, s, o, await rightAnswers(o), meta);
		expect(passed.result).toBe('passed');
		expect(passed.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(passed.secret).not.toBe(secret);
		expect(await resumeSession(t.ctx.db, secret, 30)).toBeUndefined();
		const resumed = await resumeSession(t.ctx.db, passed.secret, 30);
		expect(resumed?.id).toBe(s.id);
		expect(resumed?.identityPassedAt).toBeInstanceOf(Date);
		// The old cookie opens nothing, and is told why (a second press of "Submit answers").
		expect(await findSession(t.ctx.db, secret, 30)).toEqual({
			ended: expect.objectContaining({ end: 'replaced', channel: 'link', applicationId: 50001 })
		});
		// Once the session has ended for its own reason, that reason is the one given.
		await t.ctx.db
			.update(signingSessions)
			.set({ closedAt: new Date() })
			.where(eq(signingSessions.id, s.id));
		expect(await findSession(t.ctx.db, secret, 30)).toEqual({
			ended: expect.objectContaining({ end: 'closed' })
		});
	});
});
