import { expect, test } from '@playwright/test';
import {
	agreeToTerms,
	carriesSsn,
	createLink,
	fillSigner,
	freshSsn,
	holdScripts,
	newApplication,
	noScriptContext,
	openLinkAndStart,
	passIdentity,
	ready,
	receivedDecision,
	resetSandbox,
	TEXT,
	waitForDecision,
	walkTo,
	AT_TERMS
} from './support/flow';

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

test('declining asks once more, the reason is optional, the service receives IsAccepted false', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Decline');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await passIdentity(page, app.id);

	// The first press only asks.
	await page.getByRole('button', { name: 'Decline', exact: true }).click();
	await expect(page.getByRole('heading', { level: 1, name: TEXT.declineTitle })).toBeVisible();
	await expect(page.getByLabel('Reason (optional)')).toBeVisible();
	await expect(page.getByLabel('First name')).toHaveValue(app.first);
	await expect(page.getByLabel('Social Security Number')).toHaveAttribute('type', 'password');
	// Why the SSN is asked for here, when the earlier steps' decline needed none.
	await expect(page.getByText(/Now that\s+your identity is confirmed/)).toBeVisible();
	// And the way out without it: nothing is signed unless they sign.
	await expect(
		page.getByText(
			/If you’d rather not give your Social Security Number, you don’t have to decline here/
		)
	).toBeVisible();
	await expect(page.getByRole('button', { name: 'Yes, decline' })).toBeVisible();
	expect(
		await receivedDecision(request, app.id),
		'nothing is recorded on the first press'
	).toBeNull();

	// "Go back" returns to the sign form, nothing recorded.
	await page.getByRole('link', { name: 'Go back' }).click();
	await expect(
		page.getByRole('heading', { level: 1, name: 'Sign your application' })
	).toBeVisible();
	expect(await receivedDecision(request, app.id)).toBeNull();

	// Decline for real, without a reason.
	await page.getByRole('button', { name: 'Decline', exact: true }).click();
	await expect(page.getByRole('heading', { level: 1, name: TEXT.declineTitle })).toBeVisible();
	const ssn = '264-83-1957';
	await fillSigner(page, { ssn });
	await page.getByRole('button', { name: 'Yes, decline' }).click();
	await expect(page).toHaveURL(/\/sign\/done$/);
	await expect(page.getByRole('heading', { level: 1, name: TEXT.declinedTitle })).toBeVisible();
	await expect(page.getByText('You declined the application.')).toBeVisible();

	const d = await waitForDecision(request, app.id);
	expect(d.body.IsAccepted).toBe(false);
	expect(d.body.ApplicationID).toBe(app.id);
	expect(d.body.MerchantFirstName).toBe(app.first);
	expect(d.body.MerchantLastName).toBe(app.last);
	expect(d.body.MerchantEmail).toBe(app.email);
	expect(d.body.NotificationEmail).toBe(app.email);
	expect(d.body.IPAddress).toBe('127.0.0.1');
	expect(d.body.MerchantIPAddress).toBe('127.0.0.1');
	expect(d.body.IsIndividualGuarantyAccepted).toBe(false);
	expect(d.body.AcceptanceLanguage).toEqual({
		Accept_TermsAndConditions_Prod: false,
		Accept_PaymentReceipt_Prod: false,
		Accept_IndividualGuaranty_Prod: false,
		Accept_SeasonalAddendum_Prod: false,
		Accept_NextDayFunding_Prod: false
	});
	expect(carriesSsn(d, ssn)).toBe(true);
	expect(carriesSsn(d, '219-09-9999')).toBe(false);
	expect(d.ssnLast4).toBe('1957');
	await page.reload();
	await expect(page.getByText(String(d.merchantDecisionId), { exact: true })).toBeVisible();
});

test('a decline reason is accepted when given, phone number and all, but not an SSN', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Decline reason');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await passIdentity(page, app.id);

	await page.getByRole('button', { name: 'Decline', exact: true }).click();
	const ssn = '318-46-2075';
	await page.getByLabel('Reason (optional)').fill('My number is 587/31/4926, please call');
	await fillSigner(page, { ssn });
	await page.getByRole('button', { name: 'Yes, decline' }).click();
	await expect(
		page.getByText('Please leave your Social Security Number out of the reason')
	).toBeVisible();
	await expect(page.getByRole('heading', { level: 1, name: TEXT.declineTitle })).toBeVisible();
	expect(await receivedDecision(request, app.id)).toBeNull();

	// A refusal of another kind next (the form check's, of a control character in a name) stays
	// on the decline question, and brings no reason back: the reason typed since stays as it is.
	const reason = 'The fees are higher than we agreed. Call me at 217-555-0143.';
	await page.getByLabel('Reason (optional)').fill(reason);
	await fillSigner(page, { ssn, first: 'Da\u0000na' });
	await page.getByRole('button', { name: 'Yes, decline' }).click();
	await expect(page.getByRole('alert')).toContainText('invisible control characters');
	await expect(page.getByRole('heading', { level: 1, name: TEXT.declineTitle })).toBeVisible();
	await expect(page.locator('#firstName-error')).toContainText('control character');
	await expect(page.getByLabel('Reason (optional)')).toHaveValue(reason);

	await fillSigner(page, { ssn, first: 'Dana' });
	await page.getByRole('button', { name: 'Yes, decline' }).click();
	await expect(page.getByRole('heading', { level: 1, name: TEXT.declinedTitle })).toBeVisible();
	const d = await waitForDecision(request, app.id);
	expect(d.body.IsAccepted).toBe(false);
});

test('an invisible character pasted into a decline reason is refused beside the field, what was typed kept', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Decline control');
	const { path } = await createLink(request, app.id);
	await page.goto(path);
	// Opened after hydration: opened before it, hydration closed the disclosure again.
	await ready(page);
	await page.getByText('I don’t want to sign').click();
	// A right-to-left override, which pasting can bring in: it would show the rep the words reversed.
	const typed = 'Too expensive \u202Efor us';
	await page.getByLabel('Reason (optional)').fill(typed);
	await page.getByRole('button', { name: 'Decline the application' }).click();
	await expect(page.getByText(/This contains an invisible control character/)).toBeVisible();
	await expect(page.getByLabel('Reason (optional)')).toHaveValue(typed);
	await expect(page.getByLabel('Reason (optional)')).toHaveAttribute('aria-invalid', 'true');
	// The reason is said once, beside its field: no banner above Start.
	await expect(page.locator('p.notice.error')).toHaveCount(0);
	await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();

	await page.getByLabel('Reason (optional)').fill('Too expensive for us');
	await page.getByRole('button', { name: 'Decline the application' }).click();
	await expect(page.getByRole('heading', { level: 1, name: TEXT.declinedTitle })).toBeVisible();
});

test('without script, a decline reason refused before any page names the rep the page named, on the link and on a step', async ({
	browser,
	request
}) => {
	const context = await noScriptContext(browser);
	const page = await context.newPage();
	try {
		const app = await newApplication(request, 'Decline control no script');
		const { path } = await createLink(request, app.id);
		await page.goto(path);
		const rep = (await page.locator('p.rep').first().innerText()).trim();
		expect(rep).toMatch(/^Your sales representative/);
		// A right-to-left override, which pasting can bring in, is refused before any page's
		// action: the refusal is a page of its own, which names the rep as the link page did.
		const refuse = async () => {
			await page.getByText('I don’t want to sign').click();
			await page.getByLabel('Reason (optional)').fill('Too expensive \u202Efor us');
			await page.getByRole('button', { name: 'Decline the application' }).click();
			await expect(page.getByRole('heading', { name: 'This could not be accepted' })).toBeVisible();
			await expect(page.getByText(/Use your browser’s Back button/)).toBeVisible();
			expect((await page.locator('p.rep').first().innerText()).trim()).toBe(rep);
		};
		await refuse();
		await page.goBack();
		await page.getByRole('button', { name: 'Start' }).click();
		await expect(page).toHaveURL(AT_TERMS);
		expect((await page.locator('p.rep').first().innerText()).trim()).toBe(rep);
		await refuse();
		expect(await receivedDecision(request, app.id)).toBeNull();
	} finally {
		await context.close();
	}
});

test('a decline opened and typed before the page is ready stays open, with what was typed', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Decline early');
	const { path } = await createLink(request, app.id);
	// The page's scripts are held back, as on a slow phone, until the merchant has opened the
	// disclosure and typed a reason.
	const release = await holdScripts(page);
	await page.goto(path, { waitUntil: 'commit' });
	await page.getByText('I don’t want to sign').click();
	await page.getByLabel('Reason (optional)').fill('We chose another processor');
	await expect(page.locator('html.js')).toHaveCount(0);

	release();
	await ready(page);
	await expect(page.getByLabel('Reason (optional)')).toBeVisible();
	await expect(page.getByLabel('Reason (optional)')).toHaveValue('We chose another processor');
	await page.getByRole('button', { name: 'Decline the application' }).click();
	await expect(page.getByRole('heading', { level: 1, name: TEXT.declinedTitle })).toBeVisible();
	await expect(page.getByText('Your sales representative has been told')).toBeVisible();
});

test('an SSN in a decline reason on the link page is refused with the disclosure open, the number gone, script or not', async ({
	browser,
	request
}) => {
	for (const js of [true, false]) {
		const context = js ? await browser.newContext() : await noScriptContext(browser);
		const page = await context.newPage();
		const app = await newApplication(request, 'Decline SSN early');
		const { path } = await createLink(request, app.id);
		await page.goto(path);
		await ready(page);
		await page.getByText('I don’t want to sign').click();
		await page.getByLabel('Reason (optional)').fill('Call me, my SSN is 318-46-2075 if needed');
		await page.getByRole('button', { name: 'Decline the application' }).click();
		const reason = page.getByLabel('Reason (optional)');
		await expect(page.getByText(/leave your Social Security Number out/)).toBeVisible();
		// Open, as it was left, or as the server's new page draws it: the number is not sent back.
		await expect(reason).toBeVisible();
		await expect(reason).toHaveValue('Call me, my SSN is if needed');
		await expect(reason).toHaveAttribute('aria-invalid', 'true');
		expect(await page.content()).not.toContain('318-46-2075');
		await context.close();
	}
});

test('on the decline question, a reason and SSN typed before the page is ready stay, and the SSN is not asked for again', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Decline question early');
	await walkTo(page, request, app, 'sign');
	await fillSigner(page, { ssn: freshSsn() });
	await page.getByRole('button', { name: 'Decline', exact: true }).click();
	await expect(page.getByRole('heading', { level: 1, name: TEXT.declineTitle })).toBeVisible();

	// A reload on a slow phone: the question's page is there, its scripts not yet.
	const release = await holdScripts(page);
	await page.reload({ waitUntil: 'commit' });
	await page.getByLabel('Reason (optional)').fill('Another processor offered less');
	await page.getByLabel('Social Security Number').fill(freshSsn());
	release();
	await ready(page);
	await expect(page.getByLabel('Reason (optional)')).toHaveValue('Another processor offered less');
	await expect(page.getByText('the number you typed was not sent back')).toHaveCount(0);
});

test('a decline before identity says the rep was told only when a rep is on record', async ({
	page,
	request
}) => {
	const decline = async (repNo?: number) => {
		const app = await newApplication(request, 'Decline told', { repNo });
		const { path } = await createLink(request, app.id);
		await page.goto(path);
		await page.getByText('I don’t want to sign').click();
		// The form promises the rep is told only when there is one to tell, in a whole sentence.
		await expect(
			page.getByText(
				repNo === undefined
					? 'If you decline, the application stops here, this link stops working, and your sales representative is told.'
					: 'If you decline, the application stops here and this link stops working.'
			)
		).toBeVisible();
		await page.getByRole('button', { name: 'Decline the application' }).click();
		await expect(page.getByRole('heading', { level: 1, name: TEXT.declinedTitle })).toBeVisible();
	};
	// Rep 31 has an account: the note reaches them.
	await decline();
	await expect(page.getByText('Your sales representative has been told')).toBeVisible();
	// No account for rep 998: nobody can be told, and the page does not say anyone was.
	await decline(998);
	await expect(page.getByText('has been told')).toHaveCount(0);
	await expect(
		page.getByText('If you change your mind, ask the company that sent it to you for a new link.')
	).toBeVisible();
});

test('a decline before identity on an emailed link is confirmed to that address, reason kept out', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Decline confirmed');
	const { path } = await createLink(request, app.id, { email: app.email });
	await page.goto(path);
	await ready(page);
	await page.getByText('I don’t want to sign').click();
	await page.getByLabel('Reason (optional)').fill('We chose another processor');
	await page.getByRole('button', { name: 'Decline the application' }).click();
	await expect(page.getByRole('heading', { level: 1, name: TEXT.declinedTitle })).toBeVisible();
	await expect(page.getByText(`A confirmation is on its way to ${app.email}.`)).toBeVisible();

	await page.goto('/dev/mailbox');
	const mail = page
		.locator('article')
		.filter({ hasText: `To ${app.email}` })
		.filter({ hasText: `You declined: ${app.business}` });
	await expect(mail).toHaveCount(1);
	const text = await mail.locator('pre').innerText();
	// Sent to the owner's address on the application: greeted by name.
	expect(text).toContain('Hello Morgan Testwell,');
	expect(text).toContain(`You declined the merchant application for ${app.business} on `);
	expect(text).toContain('Your sales representative has been told, with the reason you gave.');
	expect(text).toContain(
		'If you did not decline this application, tell your sales representative at once'
	);
	expect(text).not.toContain('another processor');
});
