import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '$lib/server/app';
import { listAudit, verifyAuditChain } from '$lib/server/audit/audit';
import { decisions, linkReminders, mailOutbox, signingLinks } from '$lib/server/db/schema';
import { createLink } from '$lib/server/links/links';
import { addRep } from '$lib/server/reps/accounts';
import { mailLinkForTest } from '$lib/server/links/testing';
import { startTestApp } from '$lib/server/testing/app';
import { deliverMail, deliverMailDue } from './deliver';
import { mailEnabled } from './mode';
import { notifyRep } from './notes';
import { listMailbox, mailStatusFor, mailTrouble } from './status';
import { startSmtpServer, type SmtpTestServer } from './test-smtp';

const meta = { ip: '203.0.113.9', userAgent: 'vitest' };
const REP = { name: 'Sam Ortiz', email: 'sam@office.example', phone: '(217) 555-0100' };
const MINUTE = 60_000;

describe('the mail outbox over a real SMTP server', () => {
	let t: Awaited<ReturnType<typeof startTestApp>>;
	let smtp: SmtpTestServer;
	let ctx: AppContext;
	let nextApp = 60_000;

	beforeAll(async () => {
		smtp = await startSmtpServer();
		t = await startTestApp({
			SMTP_URL: smtp.url,
			MAIL_FROM: 'Portal <portal@office.example>',
			MAIL_MAX_ATTEMPTS: '3',
			MAIL_RETRY_SECONDS: '60',
			ORIGIN: 'https://sign.example.com'
		});
		ctx = t.ctx;
	});
	afterAll(async () => {
		await t.close();
		await smtp.close();
	});
	beforeEach(async () => {
		smtp.set('accept');
		smtp.captured.length = 0;
		await smtp.start();
	});

	/** A fresh application with a link mailed to the merchant, and the queued message. */
	async function mailedLink(business = 'Blue Heron Bakery') {
		const applicationId = nextApp++;
		const { token, link, url, result } = await mailLinkForTest(ctx, {
			applicationId,
			business,
			rep: REP
		});
		expect(result).toBe('queued');
		const [row] = await ctx.db
			.select()
			.from(mailOutbox)
			.where(eq(mailOutbox.applicationId, applicationId));
		return { id: row!.id, applicationId, url, token, link, row: row! };
	}

	const row = async (id: string) =>
		(await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!;

	it('queues the link email encrypted and delivers it once, then wipes the body', async () => {
		const m = await mailedLink('Crumb & Co. <Bakers> "Best"');
		// At rest before delivery: nothing of the link in the clear.
		expect(m.row.status).toBe('pending');
		expect(JSON.stringify(m.row)).not.toContain(m.token);
		expect(JSON.stringify(await ctx.db.select().from(linkReminders)).includes(m.token)).toBe(false);

		// Queued is not emailed: the trail says so once the mail server has it.
		const queued = await listAudit(ctx.db, 1207, m.applicationId);
		expect(queued.map((e) => e.type)).toEqual(['link.created']);
		const counts = await deliverMailDue(ctx);
		expect(counts.sent).toBe(1);
		expect(smtp.captured).toHaveLength(1);
		const mail = smtp.captured[0]!;
		expect(mail.envelopeTo).toEqual(['dana@blueheron.example']);
		expect(mail.parsed.subject).toBe('Please review and sign: Crumb & Co. <Bakers> "Best"');
		expect(mail.parsed.from?.text).toContain('portal@office.example');
		expect(mail.parsed.replyTo?.value[0]?.address).toBe(REP.email);
		expect(mail.parsed.text).toContain(m.url);
		expect(mail.parsed.text).toContain('Crumb & Co. <Bakers> "Best"');
		expect(mail.parsed.text).toMatch(
			/works until \w+day, \w+ \d+, \d{4} at \d+:\d\d [AP]M Central (Standard|Daylight) Time/
		);
		expect(mail.parsed.text).toContain('Sam Ortiz');
		expect(mail.parsed.text).toContain('(217) 555-0100');
		const html = String(mail.parsed.html);
		expect(html).toContain('Crumb &amp; Co. &lt;Bakers&gt; &quot;Best&quot;');
		expect(html).not.toContain('<Bakers>');
		expect(html).toContain(`href="${m.url}"`);

		const after = await row(m.id);
		expect(after).toMatchObject({ status: 'sent', transport: 'smtp', attempts: 1, bodyEnc: null });
		expect(JSON.stringify(after)).not.toContain(m.token);
		// Sent is sent: the worker does not pick it up again.
		expect((await deliverMailDue(ctx, new Date(Date.now() + 60 * MINUTE))).sent).toBe(0);
		expect(smtp.captured).toHaveLength(1);
		const events = await listAudit(ctx.db, 1207, m.applicationId);
		expect(events.map((e) => e.type)).toEqual(['link.created', 'link.sent']);
		expect(events[1]!.data).toMatchObject({ to: 'dana@blueheron.example', mailId: m.id });
		expect(JSON.stringify(events)).not.toContain(m.token);
	});

	it('retries when the server says "try later", with backoff, and delivers once it accepts', async () => {
		const m = await mailedLink();
		smtp.set('busy');
		const t0 = new Date();
		expect(await deliverMail(ctx, m.id, {}, t0)).toBe('retry');
		const waiting = await row(m.id);
		expect(waiting).toMatchObject({
			status: 'pending',
			attempts: 1,
			lastError: 'the mail server asked us to try again later',
			lastCode: 'EENVELOPE 451'
		});
		expect(waiting.bodyEnc).not.toBeNull();
		expect(waiting.nextAttemptAt.getTime()).toBe(t0.getTime() + MINUTE);
		// Not due yet.
		expect((await deliverMailDue(ctx, new Date(t0.getTime() + 30_000))).retry).toBe(0);
		expect(await deliverMail(ctx, m.id, {}, new Date(t0.getTime() + MINUTE))).toBe('retry');
		expect((await row(m.id)).nextAttemptAt.getTime()).toBe(t0.getTime() + 3 * MINUTE);
		smtp.set('accept');
		expect((await deliverMailDue(ctx, new Date(t0.getTime() + 3 * MINUTE))).sent).toBe(1);
		expect(smtp.captured).toHaveLength(1);
		expect(await row(m.id)).toMatchObject({
			status: 'sent',
			attempts: 3,
			lastError: null,
			bodyEnc: null
		});
	});

	it('keeps the message while the server is down and sends it when it is back', async () => {
		const m = await mailedLink();
		await smtp.stop();
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		try {
			expect((await mailTrouble(ctx.db)).retrying).toBe(0);
			expect(await deliverMail(ctx, m.id)).toBe('retry');
			// Said at the first failure, not two hours later at the last.
			expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
				expect.stringMatching(
					new RegExp(
						`^\\[mail\\] link ${m.id} for application \\d+ \\(office \\d+\\) not sent, attempt 1 of 3, next at \\S+Z: the mail server could not be reached at 127\\.0\\.0\\.1:\\d+ \\((ECONNECTION|ESOCKET)`
					)
				)
			]);
		} finally {
			warn.mockRestore();
		}
		expect((await mailTrouble(ctx.db)).retrying).toBe(1);
		expect(await row(m.id)).toMatchObject({
			status: 'pending',
			lastError: 'the mail server could not be reached'
		});
		expect((await row(m.id)).lastCode).toMatch(/^ECONNECTION|^ESOCKET/);
		await smtp.start();
		expect((await deliverMailDue(ctx, new Date(Date.now() + 2 * MINUTE))).sent).toBe(1);
		expect((await mailTrouble(ctx.db)).retrying).toBe(0);
		expect(smtp.captured.map((c) => c.envelopeTo[0])).toEqual(['dana@blueheron.example']);
	});

	it('ends failed after the last attempt, in our words, with the body gone and the trail told', async () => {
		const m = await mailedLink();
		smtp.set('busy');
		let now = new Date();
		const results = [];
		for (let i = 0; i < 3; i++) {
			results.push(await deliverMail(ctx, m.id, {}, now));
			now = new Date(now.getTime() + 10 * MINUTE);
		}
		expect(results).toEqual(['retry', 'retry', 'failed']);
		const failed = await row(m.id);
		// When it failed, which /healthz counts by: the last attempt's time.
		expect(failed.nextAttemptAt).toEqual(new Date(now.getTime() - 10 * MINUTE));
		expect(failed).toMatchObject({
			status: 'failed',
			attempts: 3,
			bodyEnc: null,
			lastError: 'the mail server asked us to try again later'
		});
		// The server's own words (which could quote the address) are not kept.
		expect(JSON.stringify(failed)).not.toContain('Try again later');
		expect(await deliverMail(ctx, m.id, {}, now)).toBe('busy');
		const status = await mailStatusFor(ctx.db, 1207, m.applicationId);
		expect(status[0]).toMatchObject({ kind: 'link', status: 'failed', problem: failed.lastError });
		const events = await listAudit(ctx.db, 1207, m.applicationId);
		// Never emailed: the trail has its failure, and no "emailed".
		expect(events.map((e) => e.type)).toEqual(['link.created', 'mail.failed']);
		expect(events.at(-1)).toMatchObject({
			type: 'mail.failed',
			data: { kind: 'link', attempts: 3 }
		});
		expect((await verifyAuditChain(ctx.db, 1207, m.applicationId)).ok).toBe(true);
		expect(smtp.captured).toHaveLength(0);
	});

	it('fails at once when the receiving server refuses the address for good', async () => {
		const m = await mailedLink();
		smtp.set('refuse');
		const before = await mailTrouble(ctx.db);
		expect(await deliverMail(ctx, m.id)).toBe('failed');
		// /healthz counts it for a day, where the retrying count never held it.
		expect(await mailTrouble(ctx.db)).toEqual({
			retrying: before.retrying,
			failed: before.failed + 1
		});
		expect(await row(m.id)).toMatchObject({
			status: 'failed',
			attempts: 1,
			lastError: 'the receiving server refused the address',
			lastCode: 'EENVELOPE 550'
		});
	});

	it('sends each message once when two workers race for the outbox', async () => {
		const ids = [];
		for (let i = 0; i < 4; i++) ids.push((await mailedLink()).id);
		const [a, b] = await Promise.all([deliverMailDue(ctx), deliverMailDue(ctx)]);
		expect(a.sent + b.sent).toBe(4);
		expect(smtp.captured).toHaveLength(4);
		const rows = await Promise.all(ids.map(row));
		expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
	});

	it('does not send a link email whose link was replaced before it went out', async () => {
		const m = await mailedLink();
		await ctx.db
			.update(signingLinks)
			.set({ revokedAt: new Date() })
			.where(eq(signingLinks.id, m.link.id));
		expect(await deliverMail(ctx, m.id)).toBe('cancelled');
		expect(await row(m.id)).toMatchObject({
			status: 'cancelled',
			bodyEnc: null,
			lastError: 'the link was revoked or replaced before the email went out'
		});
		expect(smtp.captured).toHaveLength(0);
	});

	it('does not send a link email once a decision is on record for its application, even on another session', async () => {
		const m = await mailedLink();
		// Not through this link (it is neither used nor revoked): a decision all the same.
		await ctx.db.insert(decisions).values({
			officeId: 1207,
			applicationId: m.applicationId,
			sessionId: '00000000-0000-4000-8000-000000000002',
			isAccepted: true,
			body: {},
			ssnLast4: '0000'
		});
		expect(await deliverMail(ctx, m.id)).toBe('cancelled');
		expect(await row(m.id)).toMatchObject({
			status: 'cancelled',
			bodyEnc: null,
			lastError: 'a decision was recorded before the email went out'
		});
		expect(smtp.captured).toHaveLength(0);
	});

	it('writes a rep note when it is sent, to the rep the directory names', async () => {
		const applicationId = nextApp++;
		await ctx.db.transaction(async (tx) => {
			await notifyRep(tx, {
				officeId: 1207,
				applicationId,
				business: 'Blue Heron Bakery',
				kind: 'declined',
				signer: 'Dana Whitfield',
				reason: 'The fees are higher than <we> agreed.'
			});
		});
		const [queued] = await mailStatusFor(ctx.db, 1207, applicationId);
		expect(queued).toMatchObject({ kind: 'note.declined', to: null, status: 'pending' });
		const directory = async (officeId: number, app: number) =>
			officeId === 1207 && app === applicationId ? REP : undefined;
		expect((await deliverMailDue(ctx, new Date(), { directory })).sent).toBe(1);
		const note = smtp.captured[0]!;
		expect(note.envelopeTo).toEqual([REP.email]);
		expect(note.parsed.subject).toBe('Declined: Blue Heron Bakery');
		expect(note.parsed.text).toContain('Hello Sam Ortiz,');
		expect(note.parsed.text).toContain(
			'Dana Whitfield declined the application for Blue Heron Bakery'
		);
		expect(note.parsed.text).toContain('> The fees are higher than <we> agreed.');
		expect(String(note.parsed.html)).toContain('The fees are higher than &lt;we&gt; agreed.');
		expect(note.parsed.text).toContain(
			`https://sign.example.com/rep/applications/${applicationId}`
		);
		const [sent] = await ctx.db
			.select()
			.from(mailOutbox)
			.where(eq(mailOutbox.applicationId, applicationId));
		expect(sent).toMatchObject({ status: 'sent', to: REP.email, data: null, bodyEnc: null });
	});

	it('ends a note failed, in our words, when no rep is on record', async () => {
		const applicationId = nextApp++;
		await notifyRep(ctx.db, {
			officeId: 1207,
			applicationId,
			business: 'Blue Heron Bakery',
			kind: 'signed',
			signer: 'Dana Whitfield'
		});
		// The fallback directory: links made by the operator API name no person.
		await createLink(ctx.db, {
			officeId: 1207,
			applicationId,
			email: null,
			createdBy: 'operator-api',
			ttlHours: 1,
			meta
		});
		expect((await deliverMailDue(ctx)).failed).toBe(1);
		const [state] = await mailStatusFor(ctx.db, 1207, applicationId);
		expect(state).toMatchObject({
			status: 'failed',
			problem: 'no rep with an email address is on record for this application'
		});
		expect(smtp.captured).toHaveLength(0);
	});

	it('sends a note to the rep the merchant’s pages named, where the application’s has no account', async () => {
		await addRep(
			ctx.db,
			{ officeId: 1207, repNo: 77, email: 'riley@office.example', name: 'Riley Lockwood' },
			'a pass phrase long enough'
		);
		const applicationId = nextApp++;
		// The service knows no such application, so its own rep cannot be found (as above).
		await notifyRep(ctx.db, {
			officeId: 1207,
			applicationId,
			business: 'Blue Heron Bakery',
			repNo: 77,
			kind: 'declined',
			signer: 'Dana Whitfield',
			reason: null
		});
		expect((await deliverMailDue(ctx)).sent).toBe(1);
		expect(smtp.captured[0]!.envelopeTo).toEqual(['riley@office.example']);
		expect(smtp.captured[0]!.parsed.text).toContain('Hello Riley Lockwood,');
	});

	it('tells the rep of a lock once per window', async () => {
		const applicationId = nextApp++;
		const since = new Date(Date.now() - 24 * 3_600_000);
		const lock = () =>
			notifyRep(ctx.db, {
				officeId: 1207,
				applicationId,
				business: 'Blue Heron Bakery',
				kind: 'locked',
				until: new Date('2026-12-02T17:00:00Z'),
				onceSince: since
			});
		expect(await Promise.all([lock(), lock(), lock()])).toEqual(
			expect.arrayContaining([true, false, false])
		);
		expect(await mailStatusFor(ctx.db, 1207, applicationId)).toHaveLength(1);
		await deliverMailDue(ctx, new Date(), { directory: async () => REP });
		expect(smtp.captured[0]!.parsed.text).toContain(
			'locked out of them until Wednesday, December 2, 2026 at 11:00 AM Central Standard Time'
		);
	});
});

describe('mail without an SMTP server', () => {
	let t: Awaited<ReturnType<typeof startTestApp>>;
	beforeAll(async () => {
		t = await startTestApp();
	});
	afterAll(() => t.close());

	const link = async (ctx: AppContext, applicationId: number) =>
		(await mailLinkForTest(ctx, { applicationId })).result;

	it('is off in production: nothing is queued or pretended sent, and notes end failed', async () => {
		const ctx = t.ctx;
		expect(ctx.config.sandbox).toBe(false);
		expect(mailEnabled(ctx)).toBe(false);
		expect(await link(ctx, 70_001)).toBe('off');
		expect(await mailStatusFor(ctx.db, 1207, 70_001)).toEqual([]);
		expect((await listAudit(ctx.db, 1207, 70_001)).map((e) => e.type)).toEqual(['link.created']);
		await notifyRep(ctx.db, {
			officeId: 1207,
			applicationId: 70_001,
			business: 'Blue Heron Bakery',
			kind: 'signed',
			signer: 'Dana Whitfield'
		});
		expect((await deliverMailDue(ctx)).failed).toBe(1);
		expect((await mailStatusFor(ctx.db, 1207, 70_001))[0]).toMatchObject({
			status: 'failed',
			problem: 'mail is off: no SMTP server is configured'
		});
	});

	it('keeps mail in the development mailbox on embedded defaults, text and HTML', async () => {
		const ctx: AppContext = { ...t.ctx, config: { ...t.ctx.config, sandbox: true } };
		expect(mailEnabled(ctx)).toBe(true);
		expect(await link(ctx, 70_002)).toBe('queued');
		// Visible at once, before the worker has run.
		const [waiting] = await listMailbox(ctx, 1);
		expect(waiting).toMatchObject({ status: 'pending', to: 'dana@blueheron.example' });
		expect(waiting!.body?.text).toContain('https://sign.example.com/s/');
		expect((await deliverMailDue(ctx)).sent).toBe(1);
		const [kept] = await listMailbox(ctx, 1);
		expect(kept).toMatchObject({ status: 'sent' });
		expect(kept!.body?.html).toContain('<a href="https://sign.example.com/s/');
		const [row] = await ctx.db
			.select()
			.from(mailOutbox)
			.where(eq(mailOutbox.applicationId, 70_002));
		expect(row).toMatchObject({ transport: 'mailbox' });
		expect(row!.bodyEnc).not.toBeNull();
	});
});
