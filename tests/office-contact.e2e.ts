// Whom a merchant's pages and emails name when the application's rep has no account on the
// portal: the general words on the shared server, and on a portal with an office contact set
// (OFFICE_CONTACT_*), that contact, named as the office's.
import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { exampleCreateRequest } from '../src/lib/server/onboarding/fixtures';
import { E2E } from './support/env';
import { createLink, newApplication, openLinkAndStart, resetSandbox, ready } from './support/flow';
import { smtpPortal } from './support/second-server';

const PHONE = { width: 390, height: 844 };
/** A rep number no account on either portal has (the e2e reps are 31, 47 and office 3300's 5). */
const NO_ACCOUNT = 99;
const GENERAL =
	'Your sales representative is the person at your sales office who set up this application with you; your signing link came from your sales office on their behalf.';
const DESK = {
	OFFICE_CONTACT_NAME: 'Office 1207 sales desk',
	OFFICE_CONTACT_EMAIL: 'desk@office1207.example',
	OFFICE_CONTACT_PHONE: '(217) 555-0199'
};
const NAMED = `Reach your sales representative through your sales office: ${DESK.OFFICE_CONTACT_NAME}, ${DESK.OFFICE_CONTACT_EMAIL}, ${DESK.OFFICE_CONTACT_PHONE}`;

test('with no office contact set, an application whose rep has no account names the rep in general words', async ({
	browser,
	request
}) => {
	await resetSandbox(request);
	const app = await newApplication(request, 'No account', { repNo: NO_ACCOUNT });
	const { path } = await createLink(request, app.id);
	const page = await browser.newPage({ viewport: PHONE });
	await page.goto(path);
	await ready(page);
	await expect(page.locator('.rep')).toHaveText(GENERAL);
	await expect(page.locator('.rep a')).toHaveCount(0);
	await page.close();
});

test.describe('with an office contact set', () => {
	const portal = smtpPortal('office-contact-server', DESK);

	/** An application in this portal's own sandbox, its rep by number. */
	async function application(request: APIRequestContext, repNo: number): Promise<number> {
		const doc = { ...(exampleCreateRequest() as unknown as Record<string, unknown>), RepNo: repNo };
		const res = await request.post(`${portal.origin}/sandbox/api/office/1207/application`, {
			data: doc
		});
		expect(res.status(), await res.text()).toBeLessThan(300);
		return Number(((await res.json()) as { ApplicationID: number }).ApplicationID);
	}

	async function emailLink(request: APIRequestContext, applicationId: number) {
		const res = await request.post(
			`${portal.origin}/api/v1/offices/1207/applications/${applicationId}/signing-links`,
			{
				headers: { authorization: `Bearer ${E2E.operatorKey}` },
				data: { email: 'owner@office-contact.example' }
			}
		);
		expect(res.status()).toBe(201);
		return new URL(((await res.json()) as { url: string }).url).pathname;
	}

	async function contactOn(page: Page, path: string) {
		await page.goto(`${portal.origin}${path}`);
		return page.locator('.rep');
	}

	test('the link email, the link page and a link that no longer opens name the office contact', async ({
		browser,
		request
	}) => {
		const id = await application(request, NO_ACCOUNT);
		const first = await emailLink(request, id);
		await expect.poll(() => portal.smtp.captured.length, { timeout: 30_000 }).toBe(1);
		const mail = portal.smtp.captured[0]!.parsed;
		expect(mail.text).toContain(
			`Your sales office\n  ${DESK.OFFICE_CONTACT_NAME}\n  ${DESK.OFFICE_CONTACT_EMAIL}\n  ${DESK.OFFICE_CONTACT_PHONE}\n  Reply to this email to reach them.`
		);
		expect(mail.text).not.toContain('Your sales representative');
		// A reply reaches the office, as it reaches a rep who has an account.
		expect(mail.replyTo?.value.map((a) => a.address)).toEqual([DESK.OFFICE_CONTACT_EMAIL]);

		const page = await browser.newPage({ viewport: PHONE });
		const rep = await contactOn(page, first);
		await expect(rep).toHaveText(NAMED);
		await expect(rep.getByRole('link', { name: DESK.OFFICE_CONTACT_EMAIL })).toHaveAttribute(
			'href',
			`mailto:${DESK.OFFICE_CONTACT_EMAIL}`
		);
		await expect(rep.getByRole('link', { name: DESK.OFFICE_CONTACT_PHONE })).toHaveAttribute(
			'href',
			'tel:+12175550199'
		);
		// Through the agreement: the signing pages name it too.
		await openLinkAndStart(page, `${portal.origin}${first}`);
		await expect(page.locator('.rep').first()).toHaveText(NAMED);

		// A newer link ends this one: its page says so, and whom to ask.
		await emailLink(request, id);
		await contactOn(page, first);
		await expect(page.getByText('This link has been replaced by a newer one.')).toBeVisible();
		await expect(page.locator('.rep')).toHaveText(NAMED);
		// A link the portal never made: whose it was is unknown, but the office is not.
		const unknown = await contactOn(page, `/s/${randomBytes(32).toString('base64url')}`);
		await expect(unknown).toHaveText(NAMED);
		await page.close();
	});

	test('a rep with an account is still the one named', async ({ browser, request }) => {
		const id = await application(request, 31);
		const path = await emailLink(request, id);
		const page = await browser.newPage({ viewport: PHONE });
		await expect(await contactOn(page, path)).toHaveText(
			'Your sales representative: Sam Ortiz, sam.ortiz@office1207.example, (217) 555-0100'
		);
		await page.close();
	});

	test('a merchant who declines is told the office hears of it, and the office’s contact gets the note', async ({
		browser,
		request
	}) => {
		const id = await application(request, NO_ACCOUNT);
		const res = await request.post(
			`${portal.origin}/api/v1/offices/1207/applications/${id}/signing-links`,
			{ headers: { authorization: `Bearer ${E2E.operatorKey}` }, data: {} }
		);
		expect(res.status()).toBe(201);
		const page = await browser.newPage({ viewport: PHONE });
		await page.goto(((await res.json()) as { url: string }).url);
		await ready(page);
		await page.getByText('I don’t want to sign').click();
		await expect(
			page.getByText(
				'If you decline, the application stops here, this link stops working, and your sales office is told.'
			)
		).toBeVisible();
		await expect(
			page.getByText('Your sales office will read it. A phone number to call you back is welcome.')
		).toBeVisible();
		await page.getByLabel('Reason (optional)').fill('Call me back on Monday, please');
		await page.getByRole('button', { name: 'Decline the application' }).click();
		await expect(
			page.getByText('Your sales office has been told, with your reason if you gave one.')
		).toBeVisible();
		await expect(page.getByText('ask your sales office for a new link')).toBeVisible();
		await page.close();

		const note = async () =>
			portal.smtp.captured
				.map((m) => m.parsed)
				.find((m) => m.subject?.startsWith('Declined: ') && m.text?.includes(`application ${id}`));
		await expect.poll(note, { timeout: 30_000 }).toBeTruthy();
		const mail = (await note())!;
		const to = [mail.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address));
		expect(to).toEqual([DESK.OFFICE_CONTACT_EMAIL]);
		expect(mail.text).toContain(`Hello ${DESK.OFFICE_CONTACT_NAME},`);
		expect(mail.text).toContain('Call me back on Monday, please');
		// The office's contact need not have a console account: no link into it.
		expect(mail.text).not.toContain('/rep/applications/');
	});
});
