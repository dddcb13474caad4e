import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decrypt } from '$lib/server/crypto/secretbox';
import { mailOutbox } from '$lib/server/db/schema';
import { createLink } from '$lib/server/links/links';
import { declineBeforeIdentity } from '$lib/server/signing/decline';
import { noSections } from '$lib/server/signing/sections';
import { startTestApp } from '$lib/server/testing/app';
import { recordDecision } from './decisions';
import {
	earlyDeclineEmail,
	queueEarlyDeclineReceipt,
	receiptEmail,
	receiptFor,
	type ReceiptFacts
} from './receipt';

const REFERENCE = '3f0c9a52-1b7e-4d2a-9c41-5e8f7a6b2d10';
const facts: ReceiptFacts = {
	business: 'Blue Heron Bakery',
	accepted: true,
	signer: 'Dana Whitfield',
	at: new Date('2026-11-23T15:04:05.678Z'),
	timeZone: 'America/Chicago',
	reference: REFERENCE,
	origin: 'https://sign.example.com',
	rep: { name: 'Sam Ortiz', email: 'sam.ortiz@office1207.example', phone: '(312) 555-0142' },
	inPerson: false,
	copiesMinutes: 30
};

describe('the merchant’s receipt', () => {
	it('says what was decided, when to the second, its reference, where the copies are and whom to ask', () => {
		const mail = receiptEmail(facts);
		expect(mail.subject).toBe('Your signed application: Blue Heron Bakery');
		expect(mail.text).toContain(
			'You accepted and signed the merchant application for Blue Heron Bakery on Nov 23, 2026, 9:04:05 AM CST.'
		);
		expect(mail.text).toContain(`Decision reference: ${REFERENCE}`);
		expect(mail.text).toContain(
			'Your copies (the signed application and the certificate of completion): ask your sales representative, who can download them from their console and pass them on at any time. On the device you signed on, the confirmation page offers them too, until 30 minutes after you leave it.'
		);
		expect(mail.text).toContain(`https://sign.example.com/verify/${REFERENCE}`);
		expect(mail.text).toContain('Your sales representative\n  Sam Ortiz\n');
		expect(mail.html).toContain(`href="https://sign.example.com/verify/${REFERENCE}"`);
		expect(mail.html).toContain('<strong>Blue Heron Bakery</strong>');
	});

	it('of a decline on the rep’s tablet: the certificate alone, from the rep', () => {
		const mail = receiptEmail({ ...facts, accepted: false, inPerson: true, rep: null });
		expect(mail.subject).toBe('You declined: Blue Heron Bakery');
		expect(mail.text).toContain('You declined the merchant application for Blue Heron Bakery');
		expect(mail.text).toContain(
			'Your copy (the certificate of completion): ask your sales representative, who can download it from their console and pass it on.'
		);
		expect(mail.text).not.toContain('signed application');
		expect(mail.text).toContain('and your copy is not attached.');
		expect(mail.text).toContain('If you have a question, contact your sales representative.');
	});

	it('escapes what the merchant typed', () => {
		const mail = receiptEmail({ ...facts, signer: 'Dana <b>W</b>', business: 'A & B <i>' });
		expect(mail.html).not.toContain('<b>W</b>');
		expect(mail.html).toContain('Dana &lt;b&gt;W&lt;/b&gt;');
		expect(mail.html).toContain('<strong>A &amp; B &lt;i&gt;</strong>');
	});
});

describe('the receipt queued with the decision', () => {
	let t: Awaited<ReturnType<typeof startTestApp>>;
	beforeAll(async () => {
		// An SMTP server named (never reached: nothing is delivered here), so mail is on.
		t = await startTestApp({ SMTP_URL: 'smtp://127.0.0.1:2525' });
	});
	afterAll(() => t.close());

	const input = {
		isAccepted: false,
		flags: noSections(),
		firstName: 'Dana',
		lastName: 'Whitfield',
		email: 'dana@blueheronbakery.example',
		notificationEmail: 'notices@blueheronbakery.example',
		ssn: '287654321',
		declineReason: null
	};
	const meta = { ip: '198.51.100.23', userAgent: 'vitest' };

	it('goes to the address typed, once, with the decision’s reference and no SSN', async () => {
		const s = await t.session(50002);
		const receipt = await receiptFor(t.ctx, s, input, 'https://sign.example.com');
		expect(receipt).not.toBeNull();
		const decide = () =>
			recordDecision(t.ctx.db, t.ctx.encryptionKey, s, input, meta, undefined, receipt);
		const d = await decide();
		// The merchant's own second press is answered with the first decision, and no second receipt.
		const again = await decide();
		expect(again.id).toBe(d.id);
		const rows = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'receipt'));
		expect(rows).toHaveLength(1);
		const [row] = rows;
		expect(row).toMatchObject({
			officeId: 1207,
			applicationId: 50002,
			to: 'dana@blueheronbakery.example',
			status: 'pending',
			subject: `You declined: ${s.businessName}`
		});
		const body = decrypt(t.ctx.encryptionKey, row!.bodyEnc!);
		expect(body).toContain(`https://sign.example.com/verify/${d.id}`);
		expect(body).not.toMatch(/287\D?65\D?4321|6789|4321/);
	});

	it('is not made while mail is off (production without SMTP_URL)', async () => {
		const off = { ...t.ctx, config: { ...t.ctx.config, SMTP_URL: undefined } };
		const s = await t.session(50003);
		expect(await receiptFor(off, s, { ...input, isAccepted: true }, 'x')).toBeNull();
	});
});

describe('the confirmation of a decline before identity', () => {
	it('says what was declined, when, that nothing went to the service, and the way back', () => {
		const mail = earlyDeclineEmail({
			business: 'Blue Heron Bakery',
			greet: 'Dana Whitfield',
			at: facts.at,
			timeZone: 'America/Chicago',
			reasonGiven: true,
			rep: facts.rep
		});
		expect(mail.subject).toBe('You declined: Blue Heron Bakery');
		expect(mail.text).toMatch(/^Hello Dana Whitfield,$/m);
		expect(mail.text).toContain(
			'You declined the merchant application for Blue Heron Bakery on Nov 23, 2026, 9:04:05 AM CST, from the signing link sent to this address.'
		);
		expect(mail.text).toContain(
			'Your sales representative has been told, with the reason you gave. You declined before the identity questions, so nothing went to the onboarding service, and the link no longer works. If you change your mind, ask your sales representative for a new link.'
		);
		expect(mail.text).toContain('Your sales representative\n  Sam Ortiz\n');
		expect(mail.text).toContain('If you did not decline this application, tell your sales');
		const bare = earlyDeclineEmail({
			business: 'A & B <i>',
			greet: null,
			at: facts.at,
			timeZone: 'America/Chicago',
			reasonGiven: false,
			rep: null
		});
		expect(bare.text).toMatch(/^Hello,$/m);
		// Nobody on record to tell: not said to be told, as the done page does not.
		expect(bare.text).toContain(
			'It is on record. You declined before the identity questions, so nothing went to the onboarding service, and the link no longer works. If you change your mind, ask the company that sent you the link for a new link.'
		);
		expect(bare.text).not.toContain('has been told');
		expect(bare.html).toContain('<strong>A &amp; B &lt;i&gt;</strong>');
	});

	describe('queued with it', () => {
		let t: Awaited<ReturnType<typeof startTestApp>>;
		beforeAll(async () => {
			t = await startTestApp({ SMTP_URL: 'smtp://127.0.0.1:2525' });
		});
		afterAll(() => t.close());
		const meta = { ip: '198.51.100.23', userAgent: 'vitest' };
		const linkFor = async (applicationId: number, email: string | null) =>
			(
				await createLink(t.ctx.db, {
					officeId: 1207,
					applicationId,
					email,
					createdBy: 'vitest',
					ttlHours: 24,
					meta
				})
			).link;
		const receiptsOf = (applicationId: number) =>
			t.ctx.db
				.select()
				.from(mailOutbox)
				.where(and(eq(mailOutbox.applicationId, applicationId), eq(mailOutbox.kind, 'receipt')));

		it('goes to the address the link was emailed to, greeting the owner there, without the reason', async () => {
			// The test session's owner is Dana Whitfield at dana@example.com (testing/app.ts).
			const link = await linkFor(50004, 'Dana@Example.com');
			// With a rep to look up, inside the decline's transaction as the link page makes it: on
			// PGlite's one connection, a read outside it would wait for it for ever.
			const s = { ...(await t.session(50004, 1207, link.id)), repNo: 31 };
			await t.ctx.db.transaction((tx) =>
				declineBeforeIdentity(t.ctx, tx, s, { stage: 'link', reason: 'Fees too high' }, meta)
			);
			const rows = await receiptsOf(50004);
			expect(rows).toHaveLength(1);
			expect(rows[0]).toMatchObject({
				to: 'Dana@Example.com',
				status: 'pending',
				subject: `You declined: ${s.businessName}`
			});
			const body = decrypt(t.ctx.encryptionKey, rows[0]!.bodyEnc!);
			expect(body).toContain('Hello Dana Whitfield,');
			expect(body).toContain('with the reason you gave');
			expect(body).not.toContain('Fees too high');
		});

		it('goes in person to the owner’s address on the application, when it is one', async () => {
			const at = new Date();
			const s = await t.session(50002, 1207);
			const inPerson = { ...s, channel: 'in_person' as const, linkId: null };
			await queueEarlyDeclineReceipt(
				t.ctx,
				t.ctx.db,
				{ ...inPerson, ownerEmail: 'no one' },
				true,
				at
			);
			expect(await receiptsOf(50002)).toHaveLength(0);
			await queueEarlyDeclineReceipt(t.ctx, t.ctx.db, inPerson, true, at);
			const rows = await receiptsOf(50002);
			expect(rows).toHaveLength(1);
			expect(rows[0]!.to).toBe(s.ownerEmail);
			const body = decrypt(t.ctx.encryptionKey, rows[0]!.bodyEnc!);
			expect(body).toContain('in person, on your sales representative’s device');
			expect(body).not.toContain('link');
		});

		it('is not made without an address the link went to, or with mail off', async () => {
			const at = new Date();
			const copied = await t.session(50005, 1207, (await linkFor(50005, null)).id);
			await queueEarlyDeclineReceipt(t.ctx, t.ctx.db, copied, false, at);
			expect(await receiptsOf(50005)).toHaveLength(0);
			const emailed = await t.session(50006, 1207, (await linkFor(50006, 'a@b.example')).id);
			const off = { ...t.ctx, config: { ...t.ctx.config, SMTP_URL: undefined } };
			await queueEarlyDeclineReceipt(off, t.ctx.db, emailed, false, at);
			expect(await receiptsOf(50006)).toHaveLength(0);
			await queueEarlyDeclineReceipt(t.ctx, t.ctx.db, emailed, false, at);
			expect(await receiptsOf(50006)).toHaveLength(1);
		});
	});
});
