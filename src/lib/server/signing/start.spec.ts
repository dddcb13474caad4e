import type { RequestEvent } from '@sveltejs/kit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listAudit } from '$lib/server/audit/audit';
import { signingSessions } from '$lib/server/db/schema';
import {
	earlierPass,
	identityState,
	startAttempt,
	submitAnswers
} from '$lib/server/identity/attempts';
import { createLink } from '$lib/server/links/links';
import { openLinkView } from '$lib/server/links/open';
import { createOnboardingClient } from '$lib/server/onboarding';
import { startTestApp } from '$lib/server/testing/app';
import { draftOf, saveDraft } from './draft';
import { startSigningSession } from './start';
import type { SigningSession } from './session';

const meta = { ip: '203.0.113.9', userAgent: 'vitest' };

describe('starting a signing session (the one way in)', () => {
	let t: Awaited<ReturnType<typeof startTestApp>>;
	beforeAll(async () => {
		t = await startTestApp();
	});
	afterAll(() => t.close());
	beforeEach(async () => {
		await t.control('POST', 'reset');
	});

	/** The link as stored, with the token its email would carry. */
	const link = async (applicationId: number, email: string | null) => {
		const created = await createLink(t.ctx.db, {
			officeId: 1207,
			applicationId,
			email,
			createdBy: 'test',
			ttlHours: 168,
			meta
		});
		return { ...created.link, token: created.token };
	};

	/** The earlier pass as the link page's view of a token judges it. */
	const pageView = async (token: string) => {
		const event = { getClientAddress: () => meta.ip, setHeaders: () => {} };
		return (await openLinkView(t.ctx, event as unknown as RequestEvent, token)).earlier;
	};

	const start = async (applicationId: number, linkId: string | null) =>
		startSigningSession(t.ctx, {
			officeId: 1207,
			applicationId,
			channel: 'link',
			linkId,
			repId: null,
			meta
		});

	const session = async (applicationId: number, linkId: string) => {
		const r = await start(applicationId, linkId);
		if (!r.ok) throw new Error(`start refused: ${r.reason}`);
		return r.session;
	};

	async function passIdentity(s: SigningSession) {
		expect((await startAttempt(t.ctx, s, meta)).result).toBe('started');
		const open = (await identityState(t.ctx, s, meta)).open!;
		const right = await t.control('GET', `answers/${open.questions.QuestionSetID}`);
		expect((await submitAnswers(t.ctx, s, open, right.body.Answers, meta)).result).toBe('passed');
	}

	it('writes the session with the application’s names and rep number, and its audit events', async () => {
		const l = await link(50001, 'dana@blueheronbakery.example');
		const r = await start(50001, l.id);
		expect(r.ok).toBe(true);
		if (!r.ok) return;
		expect(r.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
		const [row] = await t.ctx.db
			.select()
			.from(signingSessions)
			.where(eq(signingSessions.id, r.session.id));
		expect(row).toMatchObject({
			channel: 'link',
			linkId: l.id,
			repNo: 31,
			businessName: 'Blue Heron Bakery',
			ownerFirstName: 'Dana',
			ip: meta.ip
		});
		expect(JSON.stringify(row)).not.toContain(r.secret);
		const types = (await listAudit(t.ctx.db, 1207, 50001)).map((e) => e.type);
		expect(types.slice(-2)).toEqual(['link.opened', 'session.started']);
	});

	it('refuses, writing nothing, an application that is decided, unknown, or unreachable', async () => {
		expect(await start(50004, null)).toMatchObject({ ok: false, reason: 'decided' });
		expect(await start(59999, null)).toMatchObject({ ok: false, reason: 'not_found' });
		const down = {
			...t.ctx,
			onboarding: createOnboardingClient({ baseUrl: 'http://127.0.0.1:9/sandbox', timeoutMs: 300 })
		};
		const r = await startSigningSession(down, {
			officeId: 1207,
			applicationId: 50003,
			channel: 'link',
			linkId: null,
			repId: null,
			meta
		});
		expect(r).toMatchObject({ ok: false, reason: 'unavailable' });
		const rows = await t.ctx.db
			.select()
			.from(signingSessions)
			.where(eq(signingSessions.applicationId, 50004));
		expect(rows).toEqual([]);
	});

	it('the link page knows a lock from any link’s tries, and when it lifts', async () => {
		const view = async (token: string, now?: Date) => {
			const event = { getClientAddress: () => meta.ip, setHeaders: () => {} };
			return openLinkView(t.ctx, event as unknown as RequestEvent, token, now);
		};
		const first = await link(50005, 'pat@example.com');
		expect((await view(first.token)).lockedUntil).toBeNull();
		// 50005 never verifies: each set answered right is judged wrong, and two lock it.
		const s = await session(50005, first.id);
		for (let i = 0; i < 2; i++) {
			expect((await startAttempt(t.ctx, s, meta)).result).toBe('started');
			const open = (await identityState(t.ctx, s, meta)).open!;
			const right = await t.control('GET', `answers/${open.questions.QuestionSetID}`);
			expect((await submitAnswers(t.ctx, s, open, right.body.Answers, meta)).result).toBe('failed');
		}
		const lift = (await identityState(t.ctx, s, meta)).lockLiftsAt!;
		expect(lift).toBeInstanceOf(Date);
		// A new link, as a rep would send: its page is locked until the same moment.
		const second = await link(50005, 'pat@example.com');
		expect((await view(second.token)).lockedUntil).toEqual(lift);
		// And not once the lock has lifted.
		expect((await view(second.token, new Date(lift.getTime() + 1_000))).lockedUntil).toBeNull();
	});

	it('a new session on the same link starts from what the sign step kept, less the ticks; another link does not', async () => {
		const a = await link(50001, 'dana@blueheronbakery.example');
		const first = await session(50001, a.id);
		await passIdentity(first);
		const typed = {
			firstName: 'Danielle',
			lastName: 'Whitfield',
			email: 'danielle@blueheronbakery.example',
			notificationEmail: 'notices@blueheronbakery.example',
			signature: 'Danielle Whitfield'
		};
		await saveDraft(t.ctx.db, first, { ...typed, checked: ['TermsAndConditions'], ssnTyped: true });
		// Its session ended (idle): the merchant opens the same link again.
		const again = await session(50001, a.id);
		expect(again.draft).toEqual({ ...typed, checked: [] });
		expect(draftOf(again)).toMatchObject({
			firstName: 'Danielle',
			signature: 'Danielle Whitfield'
		});
		// A link to the same address carries the pass, but not what was typed on another link.
		const b = await link(50001, 'dana@blueheronbakery.example');
		expect((await session(50001, b.id)).draft).toBeNull();
		// Before identity has passed there is nothing to carry (and nothing is looked up).
		const c = await link(50003, 'x@example.com');
		expect((await session(50003, c.id)).draft).toBeNull();
	});

	describe('the known dead end: identity passed on link A, the merchant lost it', () => {
		it('a later link to the same address (any case) carries the pass over', async () => {
			const a = await link(50002, 'marcus@tworivershardware.example');
			const first = await session(50002, a.id);
			await passIdentity(first);
			const b = await link(50002, 'Marcus@TwoRiversHardware.example ');
			expect(await earlierPass(t.ctx.db, 1207, 50002, b.id)).toEqual({
				kind: 'carries',
				linkId: a.id
			});
			// The link page's view of b's token judges the same in its one statement.
			expect(await pageView(b.token)).toEqual({ kind: 'carries', linkId: a.id });
			const second = await session(50002, b.id);
			// The service counts the application verified (409); the portal carries the pass.
			expect((await startAttempt(t.ctx, second, meta)).result).toBe('verified');
			const [row] = await t.ctx.db
				.select()
				.from(signingSessions)
				.where(eq(signingSessions.id, second.id));
			expect(row!.identityPassedAt).toBeInstanceOf(Date);
			const events = await listAudit(t.ctx.db, 1207, 50002);
			expect(events.at(-1)).toMatchObject({
				type: 'identity.passed',
				sessionId: second.id,
				data: { by: 'earlier link to this email', passedOnLink: a.id }
			});
		});

		it('a link to any other address, or none, sends the merchant to the rep', async () => {
			const a = await link(50003, 'erik@lakesidekayak.example');
			await passIdentity(await session(50003, a.id));

			let last = a.id;
			for (const email of ['someone.else@example.com', null]) {
				const other = await link(50003, email);
				expect(await earlierPass(t.ctx.db, 1207, 50003, other.id)).toEqual({
					kind: 'refused',
					email: 'erik@lakesidekayak.example',
					inPerson: false
				});
				expect(await pageView(other.token)).toEqual({
					kind: 'refused',
					email: 'erik@lakesidekayak.example',
					inPerson: false
				});
				expect(await start(50003, other.id)).toMatchObject({
					ok: false,
					reason: 'identity_elsewhere'
				});
				last = other.id;
			}
			// Should a session on such a link exist anyway, the questions refuse it too.
			const slipped = await t.session(50003, 1207, last);
			expect((await startAttempt(t.ctx, slipped, meta)).result).toBe('elsewhere');
			const refused = (await listAudit(t.ctx.db, 1207, 50003)).at(-1)!;
			expect(refused).toMatchObject({
				type: 'identity.refused',
				data: { reason: 'verified on a link to another address' }
			});
		});
	});
});
