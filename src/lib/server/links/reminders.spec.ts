import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listAudit, verifyAuditChain } from '$lib/server/audit/audit';
import { decrypt } from '$lib/server/crypto/secretbox';
import { decisions, linkReminders, mailOutbox, signingLinks } from '$lib/server/db/schema';
import { deliverMail } from '$lib/server/mail/deliver';
import { startSmtpServer, type SmtpTestServer } from '$lib/server/mail/test-smtp';
import { startTestApp } from '$lib/server/testing/app';
import { createLink } from './links';
import { queueDueReminders } from './reminders';
import { mailLinkForTest } from './testing';

const meta = { ip: '203.0.113.9', userAgent: 'vitest' };
const DAY = 86_400_000;
const T0 = new Date('2026-03-02T15:00:00Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY);

describe('reminders for an unsigned link, by a clock moved forward', () => {
	let t: Awaited<ReturnType<typeof startTestApp>>;
	let smtp: SmtpTestServer;
	let nextApp = 80_000;

	beforeAll(async () => {
		smtp = await startSmtpServer();
		t = await startTestApp({ SMTP_URL: smtp.url });
	});
	afterAll(async () => {
		await t.close();
		await smtp.close();
	});
	beforeEach(() => {
		smtp.captured.length = 0;
	});

	/** A link mailed at T0, valid for `ttlDays`. */
	async function mailed(ttlDays: number) {
		const applicationId = nextApp++;
		const made = await mailLinkForTest(t.ctx, {
			applicationId,
			ttlHours: ttlDays * 24,
			now: T0,
			greet: 'Dana Whitfield',
			rep: { name: 'Sam Ortiz', email: 'sam@office.example', phone: null }
		});
		return { applicationId, ...made };
	}

	/** The reminders queued for the application, oldest first. */
	const reminders = (applicationId: number) =>
		t.ctx.db
			.select()
			.from(mailOutbox)
			.where(and(eq(mailOutbox.applicationId, applicationId), eq(mailOutbox.kind, 'reminder')))
			.orderBy(asc(mailOutbox.createdAt));
	/** "Reminder emailed" on the trail: once the mail server has it, not when it is queued. */
	const remindedOnTrail = async (applicationId: number) =>
		(await listAudit(t.ctx.db, 1207, applicationId)).filter((e) => e.type === 'link.reminded');
	const plan = async (linkId: string) =>
		(await t.ctx.db.select().from(linkReminders).where(eq(linkReminders.linkId, linkId)))[0]!;

	/** Runs the scheduler at each day given; returns how many reminders each run queued. */
	async function runAt(...days: number[]) {
		const out = [];
		for (const d of days) out.push(await queueDueReminders(t.ctx, at(d)));
		return out;
	}

	it('sends the first after 3 days, then every 2 days, at most 3, each on the trail', async () => {
		const l = await mailed(10);
		expect(await runAt(1, 2.99, 3, 3.5, 4.99, 5, 7, 9, 9.9)).toEqual([0, 0, 1, 0, 0, 1, 1, 0, 0]);
		const queued = await reminders(l.applicationId);
		expect(queued.map((m) => m.createdAt.toISOString())).toEqual(
			[3, 5, 7].map((d) => at(d).toISOString())
		);
		expect(await remindedOnTrail(l.applicationId)).toEqual([]);
		expect((await verifyAuditChain(t.ctx.db, 1207, l.applicationId)).ok).toBe(true);
		// The plan is over: the stored link is gone.
		expect(await plan(l.link.id)).toMatchObject({ sent: 3, nextAt: null, urlEnc: null });

		expect(queued).toHaveLength(3);
		const first = queued[0]!;
		expect(first.subject).toBe('Reminder: please review and sign: Blue Heron Bakery');
		expect(first.replyTo).toBe('sam@office.example');
		const body = JSON.parse(decrypt(t.ctx.encryptionKey, first.bodyEnc!)) as { text: string };
		expect(body.text).toContain(l.url);
		expect(body.text).toContain('still waiting for your review and signature');
		// It greets whom the link email greeted (greetingFor), kept with the plan.
		expect(body.text).toMatch(/^Hello Dana Whitfield,\n/m);

		// It goes out over SMTP like any message (the link is still valid at day 7).
		expect(await deliverMail(t.ctx, first.id, {}, at(7))).toBe('sent');
		expect(smtp.captured[0]!.parsed.text).toContain(l.url);
		// Each goes on the trail as it goes out, numbered in the order it was queued (here the
		// second is sent last).
		expect(await deliverMail(t.ctx, queued[2]!.id, {}, at(7.1))).toBe('sent');
		expect(await deliverMail(t.ctx, queued[1]!.id, {}, at(7.2))).toBe('sent');
		const events = await remindedOnTrail(l.applicationId);
		expect(events.map((e) => [e.at.toISOString(), e.data.reminder, e.data.mailId])).toEqual([
			[at(7).toISOString(), 1, queued[0]!.id],
			[at(7.1).toISOString(), 3, queued[2]!.id],
			[at(7.2).toISOString(), 2, queued[1]!.id]
		]);
		expect((await verifyAuditChain(t.ctx.db, 1207, l.applicationId)).ok).toBe(true);
	});

	it('never reminds at or after expiry: the default week allows two', async () => {
		const l = await mailed(7);
		expect(await runAt(3, 5, 7, 8)).toEqual([1, 1, 0, 0]);
		expect(await reminders(l.applicationId)).toHaveLength(2);
		expect(await plan(l.link.id)).toMatchObject({ nextAt: null, urlEnc: null });
	});

	it('plans none when the link expires before the first would be due', async () => {
		const l = await mailed(3);
		expect(
			await t.ctx.db.select().from(linkReminders).where(eq(linkReminders.linkId, l.link.id))
		).toEqual([]);
		expect(await runAt(2.9, 3, 4)).toEqual([0, 0, 0]);
	});

	it('stops when a decision is recorded', async () => {
		const l = await mailed(10);
		expect(await runAt(3)).toEqual([1]);
		// recordDecision uses the links up and writes the decision in one transaction.
		await t.ctx.db
			.update(signingLinks)
			.set({ usedAt: at(4) })
			.where(eq(signingLinks.id, l.link.id));
		await t.ctx.db.insert(decisions).values({
			officeId: 1207,
			applicationId: l.applicationId,
			sessionId: '00000000-0000-4000-8000-000000000001',
			isAccepted: true,
			body: {},
			ssnLast4: '0000'
		});
		expect(await runAt(4.5)).toEqual([0]);
		// Wiped at once, not when the next one would have been due.
		expect(await plan(l.link.id)).toMatchObject({ sent: 1, nextAt: null, urlEnc: null });
		expect(await runAt(5, 7)).toEqual([0, 0]);
		expect(await reminders(l.applicationId)).toHaveLength(1);
	});

	it('stops when the link is revoked', async () => {
		const l = await mailed(10);
		await t.ctx.db
			.update(signingLinks)
			.set({ revokedAt: at(1) })
			.where(eq(signingLinks.id, l.link.id));
		expect(await runAt(3, 5, 7)).toEqual([0, 0, 0]);
		expect(await plan(l.link.id)).toMatchObject({ sent: 0, nextAt: null, urlEnc: null });
	});

	it('stops when a new link replaces it (the new link has its own plan)', async () => {
		const l = await mailed(10);
		expect(await runAt(3)).toEqual([1]);
		await createLink(
			t.ctx.db,
			{
				officeId: 1207,
				applicationId: l.applicationId,
				email: null,
				createdBy: 'test',
				ttlHours: 240,
				meta
			},
			at(4)
		);
		expect(await runAt(5, 7)).toEqual([0, 0]);
		expect(await reminders(l.applicationId)).toHaveLength(1);
	});

	it('does not send a reminder whose link was revoked after it was queued', async () => {
		const l = await mailed(10);
		expect(await runAt(3)).toEqual([1]);
		const [queued] = await t.ctx.db
			.select()
			.from(mailOutbox)
			.where(and(eq(mailOutbox.applicationId, l.applicationId), eq(mailOutbox.kind, 'reminder')));
		await t.ctx.db
			.update(signingLinks)
			.set({ revokedAt: at(3) })
			.where(eq(signingLinks.id, l.link.id));
		expect(await deliverMail(t.ctx, queued!.id, {}, at(3))).toBe('cancelled');
		expect(smtp.captured).toHaveLength(0);
		expect(await remindedOnTrail(l.applicationId)).toEqual([]);
	});

	it('queues each reminder once when workers race', async () => {
		const l = await mailed(10);
		const counts = await Promise.all([
			queueDueReminders(t.ctx, at(3)),
			queueDueReminders(t.ctx, at(3)),
			queueDueReminders(t.ctx, at(3))
		]);
		expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
		expect(await reminders(l.applicationId)).toHaveLength(1);
	});
});
