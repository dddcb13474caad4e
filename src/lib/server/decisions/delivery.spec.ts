import { createHmac } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { listAudit, verifyAuditChain } from '$lib/server/audit/audit';
import { decisions, mailOutbox, signingSessions } from '$lib/server/db/schema';
import { deliverMail } from '$lib/server/mail/deliver';
import type { Envelope } from '$lib/server/mail/smtp';
import { identityState, startAttempt, submitAnswers } from '$lib/server/identity/attempts';
import { noSections } from '$lib/server/signing/sections';
import type { SigningSession } from '$lib/server/signing/session';
import { mailStatusFor } from '$lib/server/mail/status';
import { startTestApp } from '$lib/server/testing/app';
import { recordDecision, AlreadyDecidedError } from './decisions';
import { deliverDecision } from './delivery';
import { deliverDue } from './worker';

const meta = { ip: '198.51.100.23', userAgent: 'vitest' };
const SSN = '287654321';

/** What delivery writes to the log (not the client's line per call), from here on in the test. */
function logLines() {
	const lines: string[] = [];
	const push = (...a: unknown[]) => {
		const line = a.map(String).join(' ');
		if (line.startsWith('[decision]')) lines.push(line);
	};
	vi.spyOn(console, 'error').mockImplementation(push);
	vi.spyOn(console, 'info').mockImplementation(push);
	return lines;
}

describe('decision outbox against the sandbox', () => {
	afterEach(() => vi.restoreAllMocks());

	let t: Awaited<ReturnType<typeof startTestApp>>;
	beforeAll(async () => {
		t = await startTestApp({ DELIVERY_INTERVAL_SECONDS: '1' });
	});
	afterAll(() => t.close());
	beforeEach(async () => {
		await t.control('POST', 'reset');
		await t.ctx.db.delete(decisions);
	});

	/** A session that has passed the sandbox's identity check, as the flow leaves it. */
	async function verified(applicationId: number): Promise<SigningSession> {
		const s = await t.session(applicationId);
		expect((await startAttempt(t.ctx, s, meta)).result).toBe('started');
		const { open } = await identityState(t.ctx, s, meta);
		const right = await t.control('GET', `answers/${open!.questions.QuestionSetID}`);
		expect((await submitAnswers(t.ctx, s, open!, right.body.Answers, meta)).result).toBe('passed');
		const [row] = await t.ctx.db.select().from(signingSessions).where(eq(signingSessions.id, s.id));
		return row!;
	}

	const input = (isAccepted: boolean) => {
		const flags = noSections();
		if (isAccepted)
			Object.assign(flags, {
				TermsAndConditions: true,
				PaymentReceipt: true,
				IndividualGuaranty: true,
				NextDayFunding: true
			});
		return {
			isAccepted,
			flags,
			firstName: 'Dana',
			lastName: 'Whitfield',
			email: 'dana@blueheronbakery.example',
			notificationEmail: 'notices@blueheronbakery.example',
			ssn: SSN,
			declineReason: null
		};
	};

	const row = async (id: string) =>
		(await t.ctx.db.select().from(decisions).where(eq(decisions.id, id)))[0]!;

	it('keeps a message the service answers with, less any SSN in it however it is written', async () => {
		const s = await verified(50001);
		const d = await recordDecision(t.ctx.db, t.ctx.encryptionKey, s, input(true), meta);
		// The service echoes the SSN in its message: with dots, and once cut by the length kept.
		const echo = `Decision received for SSN 287.65.4321.${' '.repeat(450)}Ref 287-65-4321`;
		const fault = { status: 200, contentType: 'text/plain', body: echo };
		expect((await t.control('PUT', 'faults/merchantdecision', fault)).status).toBe(200);
		expect(await deliverDecision(t.ctx, d.id)).toBe('delivered');
		const kept = (await row(d.id)).responseMessage!;
		expect(kept).toMatch(/^Decision received for SSN \[number\]\./);
		const trail = JSON.stringify(await listAudit(t.ctx.db, 1207, 50001));
		for (const text of [kept, trail]) {
			expect(text).not.toMatch(/287\D?65\D?4/);
			expect(text).not.toMatch(/654321|65\D?4321/);
		}
	});

	it('records before sending, delivers the exact body, then wipes the SSN', async () => {
		const s = await verified(50001);
		const d = await recordDecision(t.ctx.db, t.ctx.encryptionKey, s, input(true), meta);
		expect(d.ssnEnc).not.toContain(SSN);
		expect(JSON.stringify(d.body)).not.toContain(SSN);
		expect(await deliverDecision(t.ctx, d.id)).toBe('delivered');

		const got = await t.control('GET', 'decisions/50001');
		expect(got.status).toBe(200);
		expect(got.body).toMatchObject({
			IPAddress: '198.51.100.23',
			MerchantIPAddress: '198.51.100.23',
			IsAccepted: true,
			ApplicationID: 50001,
			MerchantFirstName: 'Dana',
			MerchantLastName: 'Whitfield',
			MerchantEmail: 'dana@blueheronbakery.example',
			NotificationEmail: 'notices@blueheronbakery.example',
			IsIndividualGuarantyAccepted: true,
			AcceptanceLanguage: {
				Accept_TermsAndConditions_Prod: true,
				Accept_PaymentReceipt_Prod: true,
				Accept_IndividualGuaranty_Prod: true,
				Accept_SeasonalAddendum_Prod: false,
				Accept_NextDayFunding_Prod: true
			},
			ssnHmac: createHmac('sha256', t.sandbox.ssnKey).update(SSN).digest('hex'),
			ssnLast4: '4321'
		});

		const after = await row(d.id);
		expect(after).toMatchObject({ status: 'delivered', ssnEnc: null, attempts: 1 });
		expect(after.merchantDecisionId).toBe(got.body.MerchantDecisionID);
		const types = (await listAudit(t.ctx.db, 1207, 50001)).map((e) => e.type);
		expect(types.slice(-2)).toEqual(['decision.accepted', 'decision.delivered']);
		expect((await verifyAuditChain(t.ctx.db, 1207, 50001)).ok).toBe(true);
		expect(JSON.stringify(await listAudit(t.ctx.db, 1207, 50001))).not.toContain(SSN);
	});

	it('tells the rep, in the signed note written after the delivery, the decision’s number', async () => {
		const s = await verified(50001);
		const d = await recordDecision(t.ctx.db, t.ctx.encryptionKey, s, input(true), meta);
		expect(await deliverDecision(t.ctx, d.id)).toBe('delivered');
		const [note] = await t.ctx.db
			.select({ id: mailOutbox.id })
			.from(mailOutbox)
			.where(and(eq(mailOutbox.applicationId, 50001), eq(mailOutbox.kind, 'note.signed')))
			.orderBy(desc(mailOutbox.createdAt))
			.limit(1);
		const sent: Envelope[] = [];
		// Mail on (no server listens there: the sender below takes the message).
		const ctx = { ...t.ctx, config: { ...t.ctx.config, SMTP_URL: 'smtp://127.0.0.1:9' } };
		await deliverMail(ctx, note!.id, {
			sender: { send: async (m) => void sent.push(m), close: () => {} },
			directory: async () => ({ name: 'Sam Ortiz', email: 'sam@example.com', phone: null })
		});
		const { merchantDecisionId } = await row(d.id);
		expect(merchantDecisionId).toEqual(expect.any(Number));
		expect(sent[0]!.text).toContain(
			`The onboarding service has received the decision, as decision no. ${merchantDecisionId}.`
		);
		expect(sent[0]!.text).not.toContain('if the service refuses it');
	});

	it('keeps the decision through an outage and delivers it once the service is back', async () => {
		const lines = logLines();
		const s = await verified(50002);
		const d = await recordDecision(t.ctx.db, t.ctx.encryptionKey, s, input(true), meta);
		await t.control('PUT', 'faults/merchantdecision', { status: 503 });
		expect(await deliverDecision(t.ctx, d.id)).toBe('retry');
		// The operator reads of it in the log, by ids: the application, never the merchant.
		expect(lines).toEqual([
			expect.stringMatching(
				/^\[decision\] application 50002 \(office 1207\), attempt 1: not delivered, next try at \S+Z: OnboardingError .*status=503/
			)
		]);
		const waiting = await row(d.id);
		expect(waiting).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 503 });
		expect(waiting.ssnEnc).not.toBeNull();
		expect(waiting.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());

		// Not due yet: the worker leaves it alone.
		expect(await deliverDue(t.ctx)).toBe(0);
		await t.control('DELETE', 'faults');
		expect(await deliverDue(t.ctx, new Date(Date.now() + 60_000))).toBe(1);
		expect(await row(d.id)).toMatchObject({ status: 'delivered', ssnEnc: null, attempts: 2 });
		expect((await t.control('GET', 'decisions/50002')).body.IsAccepted).toBe(true);
		expect(lines[1]).toBe('[decision] application 50002 (office 1207), attempt 2: delivered');
	});

	it('treats a timeout as an outage', async () => {
		const s = await verified(50003);
		const d = await recordDecision(t.ctx.db, t.ctx.encryptionKey, s, input(false), meta);
		await t.control('PUT', 'faults/merchantdecision', { hang: true });
		expect(await deliverDecision(t.ctx, d.id)).toBe('retry');
		await t.control('DELETE', 'faults');
		expect(await deliverDecision(t.ctx, d.id)).toBe('delivered');
		expect((await t.control('GET', 'decisions/50003')).body).toMatchObject({
			IsAccepted: false,
			IsIndividualGuarantyAccepted: false
		});
	});

	it('counts 409 "already recorded" as delivered', async () => {
		const s = await verified(50001);
		const d = await recordDecision(t.ctx.db, t.ctx.encryptionKey, s, input(true), meta);
		await t.control('PUT', 'faults/merchantdecision', { status: 409 });
		expect(await deliverDecision(t.ctx, d.id)).toBe('delivered');
		expect(await row(d.id)).toMatchObject({ status: 'delivered', ssnEnc: null, lastStatus: 409 });
	});

	it('stops, and wipes the SSN, when the service refuses for good', async () => {
		const lines = logLines();
		const s = await t.session(50001); // identity never passed upstream: 403
		const d = await recordDecision(t.ctx.db, t.ctx.encryptionKey, s, input(true), meta);
		expect(await deliverDecision(t.ctx, d.id)).toBe('rejected');
		expect(lines).toEqual([
			expect.stringMatching(
				/^\[decision\] application 50001 \(office 1207\), attempt 1: refused for good by the service; its rep is told: OnboardingError .*status=403/
			)
		]);
		expect(await row(d.id)).toMatchObject({ status: 'rejected', ssnEnc: null, lastStatus: 403 });
		// The rep hears of the signing, then that the decision did not get through.
		const kinds = (await mailStatusFor(t.ctx.db, 1207, 50001)).map((m) => m.kind);
		expect(kinds.slice(0, 2)).toEqual(['note.undelivered', 'note.signed']);
	});

	it('queues the rep’s note with the decision, the decline reason in it', async () => {
		const s = await verified(50003);
		const before = await mailStatusFor(t.ctx.db, 1207, 50003);
		const first = await recordDecision(
			t.ctx.db,
			t.ctx.encryptionKey,
			s,
			{ ...input(false), declineReason: 'Fees too high' },
			meta
		);
		const after = await mailStatusFor(t.ctx.db, 1207, 50003);
		expect(after).toHaveLength(before.length + 1);
		expect(after[0]).toMatchObject({
			kind: 'note.declined',
			subject: 'Declined: Test business',
			status: 'pending',
			to: null
		});
		// The same session pressing again is answered with what it recorded, and another session is
		// refused: either way neither a decision nor a note is written.
		const again = await recordDecision(t.ctx.db, t.ctx.encryptionKey, s, input(true), meta);
		expect(again).toMatchObject({ id: first.id, isAccepted: false });
		await expect(
			recordDecision(t.ctx.db, t.ctx.encryptionKey, await t.session(50003), input(true), meta)
		).rejects.toBeInstanceOf(AlreadyDecidedError);
		expect(await mailStatusFor(t.ctx.db, 1207, 50003)).toHaveLength(after.length);
	});

	it('allows one decision per application and one delivery at a time', async () => {
		const s = await verified(50001);
		const d = await recordDecision(t.ctx.db, t.ctx.encryptionKey, s, input(true), meta);
		const other = await t.session(50001);
		await expect(
			recordDecision(t.ctx.db, t.ctx.encryptionKey, other, input(false), meta)
		).rejects.toBeInstanceOf(AlreadyDecidedError);
		const results = await Promise.all([
			deliverDecision(t.ctx, d.id),
			deliverDecision(t.ctx, d.id),
			deliverDecision(t.ctx, d.id)
		]);
		expect(results.filter((r) => r === 'delivered')).toHaveLength(1);
		expect(results.filter((r) => r === 'busy')).toHaveLength(2);
	});

	it('takes the same session’s second press (a double submit) as the decision it recorded', async () => {
		const s = await verified(50001);
		// Both presses left the browser before the first was recorded: both carry the old session.
		const [first, second] = await Promise.all([
			recordDecision(t.ctx.db, t.ctx.encryptionKey, s, input(true), meta),
			recordDecision(t.ctx.db, t.ctx.encryptionKey, s, input(true), meta)
		]);
		expect(second.id).toBe(first.id);
		expect(await t.ctx.db.select().from(decisions)).toHaveLength(1);
		const recorded = (await listAudit(t.ctx.db, 1207, 50001)).filter(
			(e) => e.type === 'decision.accepted' && e.data.decisionId === first.id
		);
		expect(recorded).toHaveLength(1);
	});
});
