import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decrypt } from '$lib/server/crypto/secretbox';
import { mailOutbox } from '$lib/server/db/schema';
import { noSections } from '$lib/server/signing/sections';
import { startTestApp } from '$lib/server/testing/app';
import { recordDecision } from './decisions';
import { receiptEmail, receiptFor, type ReceiptFacts } from './receipt';

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
