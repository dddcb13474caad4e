import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '$lib/server/app';
import { signingSessions } from '$lib/server/db/schema';
import { createUpstreamCache } from '$lib/server/onboarding/cache';
import { startTestApp } from '$lib/server/testing/app';
import { exampleDecisionRequest } from '$lib/server/onboarding/fixtures';
import type { ApplicationListItem } from '$lib/server/onboarding';
import { findApplication, officeApplications, serviceStatus } from './application';
import type { SigningSession } from './session';
import { showTerms } from './terms';

const meta = { ip: '127.0.0.1', userAgent: 'vitest' };

describe('upstream reference data, kept for a short time', () => {
	let t: Awaited<ReturnType<typeof startTestApp>>;
	/** Moves the caches' clock ahead of the real one (which the database's times follow). */
	let ahead = 0;
	/** An instance of the portal: its own cache, the shared database and service. */
	const instance = (): AppContext => ({
		...t.ctx,
		upstreamCache: createUpstreamCache({
			ttlSeconds: 60,
			maxMegabytes: 16,
			now: () => Date.now() + ahead
		})
	});
	const calls = async (operation: string) =>
		((await t.control('GET', `requests?operation=${operation}`)).body as unknown[]).length;
	const reread = async (s: SigningSession) =>
		(await t.ctx.db.select().from(signingSessions).where(eq(signingSessions.id, s.id)))[0]!;
	const changeTerms = (html: string) =>
		t.control('PUT', 'acceptancelanguage/1207/PaymentReceipt', { html });

	beforeAll(async () => {
		t = await startTestApp();
	});
	afterAll(() => t.close());
	beforeEach(async () => {
		ahead = 0;
		await t.control('POST', 'reset');
	});

	it('asks the service once for an office’s terms, for every session and reload', async () => {
		const portal = instance();
		const a = await t.session(50001);
		const b = await t.session(50002);
		const shown = await showTerms(portal, a, meta);
		await showTerms(portal, await reread(a), meta);
		const other = await showTerms(portal, b, meta);
		expect(other.version).toBe(shown.version);
		expect(await calls('acceptancelanguage')).toBe(1);
	});

	it('shows changed terms once its copy is older than the limit', async () => {
		const portal = instance();
		const s = await t.session(50001);
		const before = await showTerms(portal, s, meta);
		await changeTerms('<p>New receipt terms</p>');
		expect((await showTerms(portal, await reread(s), meta)).version).toBe(before.version);
		ahead += 61_000;
		const after = await showTerms(portal, await reread(s), meta);
		expect(after.version).not.toBe(before.version);
		expect(after.sections.find((x) => x.key === 'PaymentReceipt')!.html).toBe(
			'<p>New receipt terms</p>'
		);
		// What consent is checked against: the version last on the merchant's screen.
		expect((await reread(s)).termsVersion).toBe(after.version);
	});

	it('never takes a merchant back to older terms another instance has already replaced', async () => {
		const one = instance();
		const two = instance();
		const s = await t.session(50001);
		const old = await showTerms(one, s, meta); // instance one keeps the old terms
		await changeTerms('<p>Changed while reading</p>');
		const fresh = await showTerms(two, await reread(s), meta); // two loads them anew
		expect(fresh.version).not.toBe(old.version);
		// One's copy is older than what the session was shown: it asks the service again.
		expect((await showTerms(one, await reread(s), meta)).version).toBe(fresh.version);
		expect((await reread(s)).termsVersion).toBe(fresh.version);
		expect(await calls('acceptancelanguage')).toBe(3);
	});

	it('reads application entries from one list call, and asks again when told to', async () => {
		const portal = instance();
		const first = await findApplication(portal, 1207, 50001);
		expect(first).toMatchObject({ ApplicationID: 50001, DBA_Name: 'Blue Heron Bakery' });
		expect((await findApplication(portal, 1207, 50002))?.DBA_Name).toBe('Two Rivers Hardware');
		expect(await calls('listapplications')).toBe(1);
		await findApplication(portal, 1207, 50001, { fresh: true });
		expect(await calls('listapplications')).toBe(2);
	});

	it('lists the office for the console from the shared copy while it is young enough', async () => {
		const portal = instance();
		const list = () => officeApplications(portal, 1207, 10, Date.now() + ahead);
		const ids = async () => (await list()).map((a) => Number(a.ApplicationID));
		expect(await ids()).toContain(50001);
		await findApplication(portal, 1207, 50002);
		ahead += 9_000;
		await list();
		expect(await calls('listapplications')).toBe(1);
		ahead += 2_000;
		expect(await ids()).toContain(50001);
		expect(await calls('listapplications')).toBe(2);
		// The refreshed copy serves the merchant pages' look-ups too.
		await findApplication(portal, 1207, 50002);
		expect(await calls('listapplications')).toBe(2);
	});

	it('asks again for a copy read before a given time (a decision delivered), once', async () => {
		const portal = instance();
		const at = () => Date.now() + ahead;
		await findApplication(portal, 1207, 50001, { maxAgeSeconds: 10 }, at());
		ahead += 1_000;
		const delivered = new Date(at());
		ahead += 1_000;
		const young = { maxAgeSeconds: 10, since: new Date(delivered.getTime() - 2_000) };
		await findApplication(portal, 1207, 50001, young, at());
		expect(await calls('listapplications'), 'a copy read after the time is kept').toBe(1);
		const since = { maxAgeSeconds: 10, since: delivered };
		await findApplication(portal, 1207, 50001, since, at());
		expect(await calls('listapplications'), 'a copy read before it is not').toBe(2);
		await findApplication(portal, 1207, 50001, since, at());
		expect(await calls('listapplications'), 'the new copy is').toBe(2);
	});

	it('shows a rep the service’s status as read after the decision reached it', async () => {
		const portal = instance();
		const at = () => Date.now() + ahead;
		const status = (listed: ApplicationListItem, deliveredAt: Date | null) =>
			serviceStatus(portal, 1207, listed, deliveredAt, 10, at());
		const listed = (await findApplication(portal, 1207, 50001, { maxAgeSeconds: 10 }, at()))!;
		expect(await status(listed, null)).toBe('Pending Signature');
		ahead += 1_000;
		// The service takes a decision once the signer's identity passed there.
		const set = await portal.onboarding.getQuestionSet(1207, 50001);
		const right = await t.control('GET', `answers/${set.QuestionSetID}`);
		const answers = { ApplicationID: 50001, QuestionSetID: set.QuestionSetID };
		await portal.onboarding.postAnswerSet(1207, 50001, { ...answers, Answers: right.body.Answers });
		await portal.onboarding.postMerchantDecision(1207, 50001, exampleDecisionRequest());
		const delivered = new Date(at());
		ahead += 1_000;
		// The copy, two seconds old and young enough for the list, is from before the decision.
		expect(await status(listed, delivered)).toBe('Signed');
		expect(await calls('listapplications')).toBe(2);
		expect(await status(listed, delivered), 'and the copy read since is kept').toBe('Signed');
		expect(await calls('listapplications')).toBe(2);
		// The service not answering: the copy's status, not an error.
		await t.control('PUT', 'faults/listapplications', { status: 503 });
		ahead += 1_000;
		expect(await status(listed, new Date(at()))).toBe('Pending Signature');
	});

	it('asks again before calling an application missing that may be newer than its copy', async () => {
		const portal = instance();
		await findApplication(portal, 1207, 50001);
		expect(await findApplication(portal, 1207, 59999)).toBeUndefined();
		expect(await calls('listapplications')).toBe(2);
	});
});
