import { expect, test } from '@playwright/test';
import {
	agreeToTerms,
	carriesSsn,
	createLink,
	digitsOf,
	fillSignForm,
	freshSsn,
	holdScripts,
	newApplication,
	openLinkAndStart,
	passIdentity,
	ready,
	receivedDecision,
	rememberSsn,
	resetSandbox,
	setSection,
	TEXT,
	waitForDecision,
	walkTo,
	AT_TERMS
} from './support/flow';
import { REPS, appPath, signIn } from './support/reps';

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

test('accepting sends the service exactly what the merchant confirmed', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Accept');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);

	// Terms: each presented section under its own heading; Seasonal Addendum is not presented.
	const titles = [
		'Terms and Conditions',
		'Payment Receipt',
		'Individual Guaranty',
		'Next Day Funding'
	];
	for (const t of titles) {
		await expect(
			page.locator('section').getByRole('heading', { level: 2, name: t, exact: true })
		).toBeVisible();
	}
	await expect(page.getByRole('heading', { name: 'Seasonal Addendum' })).toHaveCount(0);
	await agreeToTerms(page);

	// Identity: the limit and the tries are stated before the clock starts.
	await expect(page.getByText(/There is a time limit, usually 2 minutes/)).toBeVisible();
	await expect(page.getByText(/You have 2 of 2\s+tries left/)).toBeVisible();
	await passIdentity(page, app.id);

	// Sign: one box per presented section, the prefilled fields, a masked SSN.
	const group = page.getByRole('group', { name: 'Confirm each document' });
	await expect(group.getByRole('checkbox')).toHaveCount(4);
	for (const t of titles)
		await expect(group.getByLabel(`I have read and accept the ${t}`)).not.toBeChecked();
	await expect(page.getByLabel('First name')).toHaveValue(app.first);
	await expect(page.getByLabel('Last name')).toHaveValue(app.last);
	await expect(page.getByLabel('Email', { exact: true })).toHaveValue(app.email);
	await expect(page.getByLabel('Notification email')).toHaveValue(app.email);
	await expect(page.getByLabel('Social Security Number')).toHaveAttribute('type', 'password');

	// As pasted from somewhere, with a space before it: the field takes it whole (it stopped at
	// eleven characters, which cut the last digit off) and the server ignores the space. The last
	// name brings a zero-width space along, as a paste from a web page can: it is dropped.
	const ssn = ' 372-51-8806';
	await fillSignForm(page, {
		first: 'Morgan Q.',
		last: 'Testwell\u200b-Ray',
		email: 'signer@testshop.example',
		notificationEmail: 'notices@testshop.example',
		ssn
	});
	const before = Date.now();
	await page.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(page).toHaveURL(/\/sign\/done$/);
	await expect(page.getByRole('heading', { level: 1, name: TEXT.signedTitle })).toBeVisible();

	const d = await waitForDecision(request, app.id);
	const b = d.body;
	expect(b.IPAddress).toBe('127.0.0.1');
	expect(b.MerchantIPAddress).toBe('127.0.0.1');
	expect(b.IsAccepted).toBe(true);
	expect(b.ApplicationID).toBe(app.id);
	expect(b.MerchantSSN, 'the control API never shows the SSN').toBeUndefined();
	expect(carriesSsn(d, ssn)).toBe(true);
	expect(carriesSsn(d, '219-09-9999')).toBe(false);
	expect(d.ssnLast4).toBe('8806');
	expect(b.MerchantFirstName).toBe('Morgan Q.');
	expect(b.MerchantLastName).toBe('Testwell-Ray');
	expect(b.MerchantEmail).toBe('signer@testshop.example');
	expect(b.NotificationEmail).toBe('notices@testshop.example');
	expect(b.IsIndividualGuarantyAccepted).toBe(true);
	expect(b.AcceptanceLanguage).toEqual({
		Accept_TermsAndConditions_Prod: true,
		Accept_PaymentReceipt_Prod: true,
		Accept_IndividualGuaranty_Prod: true,
		Accept_SeasonalAddendum_Prod: false,
		Accept_NextDayFunding_Prod: true
	});

	// Done: the time and the decision number the service assigned.
	await page.reload();
	await expect(page.getByText(String(d.merchantDecisionId), { exact: true })).toBeVisible();
	// …and the portal's reference, which the copies print and /verify takes.
	await expect(page.locator('dd.reference')).toHaveText(
		/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
	);
	const when = await page.locator('time').getAttribute('datetime');
	expect(Math.abs(new Date(when!).getTime() - before)).toBeLessThan(60_000);
	await expect(
		page.getByRole('link', { name: 'Download your signed application (PDF)' })
	).toHaveAttribute('href', '/sign/done/signed-copy.pdf');
	await expect(
		page.getByRole('link', { name: 'Download the certificate of completion (PDF)' })
	).toHaveAttribute('href', '/sign/done/certificate.pdf');
	// How long the copies stay, as the session's idle limit has it.
	await expect(
		page.getByText(
			'your link has been used up, and this page closes for good 30 minutes after you leave it.'
		)
	).toBeVisible();
	// A receipt goes to the address typed: what was decided, its reference, where the copies are,
	// whom to ask, and nothing secret (the dev mailbox shows its text).
	await expect(
		page.getByText(
			'A receipt with the decision reference is on its way to signer@testshop.example.'
		)
	).toBeVisible();
	const reference = await page.locator('dd.reference').innerText();
	const receipt = page.locator('article', { hasText: `Your signed application: ${app.business}` });
	await page.goto('/dev/mailbox');
	await expect(receipt).toHaveCount(1);
	await expect(receipt).toContainText('To signer@testshop.example');
	await expect(receipt).toContainText(
		`You accepted and signed the merchant application for ${app.business} on`
	);
	await expect(receipt).toContainText(`Decision reference: ${reference}`);
	await expect(receipt.getByRole('link', { name: /\/verify\// })).toHaveAttribute(
		'href',
		new RegExp(`/verify/${reference}$`)
	);
	// Not the SSN, nor its last four (the reference, in hex, is left out of the look).
	expect((await receipt.innerText()).replaceAll(reference, '')).not.toMatch(/8806/);
});

test('accept needs every presented section ticked; errors per field, the SSN never sent back', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Accept errors');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await passIdentity(page, app.id);

	const ssn = '481-27-3390';
	await fillSignForm(page, {
		email: 'not-an-email',
		ssn,
		sections: ['Terms and Conditions', 'Payment Receipt', 'Next Day Funding']
	});
	// The page leaves the checks to the server, whose summary names every field at once (the
	// browser's stopped at the first empty field, one at a time).
	await expect(page.locator('form[action="/sign/sign?/accept"]')).toHaveAttribute('novalidate', '');
	const [answer] = await Promise.all([
		page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/sign/sign')),
		page.getByRole('button', { name: 'Accept and sign' }).click()
	]);
	const answered = await answer.text();

	await expect(
		page.getByText('Tick to confirm you accept the Individual Guaranty section.')
	).toBeVisible();
	await expect(page.getByText(/Enter your email address in the form/)).toBeVisible();
	await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('aria-invalid', 'true');
	await expect(page.getByLabel('I have read and accept the Individual Guaranty')).toHaveAttribute(
		'aria-invalid',
		'true'
	);
	// What was ticked and typed is kept…
	await expect(page.getByLabel('I have read and accept the Terms and Conditions')).toBeChecked();
	await expect(page.getByLabel('Email', { exact: true })).toHaveValue('not-an-email');
	// …but no answer carried the SSN back. With script the field still holds it, so nothing asks
	// for it again.
	await expect(page.getByLabel('Social Security Number')).not.toHaveValue('');
	await expect(page.locator('#ssn-again')).toHaveCount(0);
	await expect(page.getByRole('alert').getByRole('link')).toHaveText([
		'I have read and accept the Individual Guaranty section',
		'Email'
	]);
	await expect(page.getByText('Please fix the 2 highlighted fields below')).toBeVisible();
	expect(answered).not.toContain(digitsOf(ssn));
	expect(answered).not.toContain(ssn);
	expect(await receivedDecision(request, app.id)).toBeNull();
	await expect(page).toHaveURL(/\/sign\/sign$/);

	// A bad SSN is named beside its field.
	await page.getByLabel('I have read and accept the Individual Guaranty').check();
	await page.getByLabel('Email', { exact: true }).fill('morgan@testshop.example');
	rememberSsn('999-12-3456');
	await page.getByLabel('Social Security Number').fill('999-12-3456');
	await page.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(
		page.getByText('That isn’t a valid Social Security Number. Check the digits.')
	).toBeVisible();
	await expect(page.getByLabel('Social Security Number')).toHaveAttribute('aria-invalid', 'true');
	expect(await receivedDecision(request, app.id)).toBeNull();

	// A reload shows what was sent last (the SSN asked for again), not the application's names.
	await page.reload();
	await ready(page);
	await expect(page.getByLabel('Email', { exact: true })).toHaveValue('morgan@testshop.example');
	await expect(page.getByLabel('I have read and accept the Individual Guaranty')).toBeChecked();
	await expect(page.getByLabel('Social Security Number')).toHaveValue('');
	await expect(page.locator('#ssn-again')).toBeVisible();
});

test('what is typed and ticked on the sign step before the page is ready stays, the draft not put back over it', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Accept early');
	await walkTo(page, request, app, 'sign');
	// A reload on a slow phone: the server's page is there, its scripts not yet.
	const release = await holdScripts(page);
	await page.reload({ waitUntil: 'commit' });
	await page.getByLabel('First name').fill('Robin');
	await page.getByLabel('Notification email').fill('notices@early.example');
	const firstSection = page.getByRole('checkbox').first();
	await firstSection.check();
	await page.getByLabel('Type your full name to sign').fill('Robin Testwell');
	release();
	await ready(page);
	await expect(page.getByLabel('First name')).toHaveValue('Robin');
	await expect(page.getByLabel('Notification email')).toHaveValue('notices@early.example');
	await expect(firstSection).toBeChecked();
	await expect(page.getByLabel('Type your full name to sign')).toHaveValue('Robin Testwell');
});

test('what is typed and ticked on the sign step survives a reload, never the SSN', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Accept reload');
	await walkTo(page, request, app, 'sign');
	const ssn = freshSsn();
	await fillSignForm(page, {
		first: 'Robin',
		last: 'Reloaded',
		notificationEmail: 'notices@reload.example',
		sections: ['Terms and Conditions'],
		signature: 'Robin Reloaded',
		ssn
	});
	// A phone that drops the tab in the background loads it again the same way.
	await page.reload();
	await ready(page);
	await expect(page.getByLabel('First name')).toHaveValue('Robin');
	await expect(page.getByLabel('Last name')).toHaveValue('Reloaded');
	await expect(page.getByLabel('Notification email')).toHaveValue('notices@reload.example');
	await expect(page.getByLabel('Type your full name to sign')).toHaveValue('Robin Reloaded');
	// Put back as if typed: the names, not the owner's, are said to be so.
	await expect(page.locator('#not-owner')).toBeVisible();
	const group = page.getByRole('group', { name: 'Confirm each document' });
	await expect(
		group.getByLabel('I have read and accept the Terms and Conditions section')
	).toBeChecked();
	await expect(group.getByRole('checkbox', { checked: true })).toHaveCount(1);
	await expect(page.getByLabel('Social Security Number')).toHaveValue('');
	// Typed before, not kept: the page says so beside the field, as after a refused post.
	const again = page.locator('#ssn-again');
	await expect(again).toHaveText(/number you typed is not kept when the page is loaded again/);
	await expect(page.getByLabel('Social Security Number')).toHaveAttribute(
		'aria-describedby',
		/\bssn-again\b/
	);
	const kept = await page.evaluate(() => JSON.stringify(sessionStorage));
	expect(kept).toContain('Robin Reloaded');
	expect(kept).not.toContain(ssn);
	// Sent from here, the restored values are what the service gets.
	await page.getByLabel('Social Security Number').fill(ssn);
	await expect(again).toHaveCount(0);
	for (const box of await group.getByRole('checkbox').all()) await box.check();
	await page.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(page.getByRole('heading', { level: 1, name: TEXT.signedTitle })).toBeVisible();
	const d = await waitForDecision(request, app.id);
	expect(d.body.MerchantFirstName).toBe('Robin');
	expect(d.body.NotificationEmail).toBe('notices@reload.example');
});

test('consent is required before the questions, with a plain message', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Consent');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);
	const box = page.getByLabel(TEXT.consent);
	await expect(box).toHaveAttribute('required', '');
	// A browser that does not enforce `required` (or a forged post) reaches the server's check.
	await page
		.locator('form[action="/sign/terms?/consent"]')
		.evaluate((f) => f.setAttribute('novalidate', ''));
	await page.getByRole('button', { name: 'Continue' }).click();
	const error = page.locator('#consent-error');
	await expect(error).toBeVisible();
	await expect(box).toHaveAttribute('aria-invalid', 'true');
	await expect(error).toHaveText(
		'Tick the box to agree to use electronic records before you continue.'
	);
	await expect(page).toHaveURL(AT_TERMS);
	// Said at the top too, with a way down to the box.
	const summary = page.getByRole('alert').filter({ hasText: 'You haven’t agreed yet' });
	await summary.getByRole('link', { name: 'Go to it' }).click();
	await expect(error).toBeInViewport();
	await agreeToTerms(page);
});

test('the flags follow what was presented: a seasonal addendum shown, no guaranty', async ({
	page,
	request
}) => {
	await setSection(request, 'SeasonalAddendum', { presented: true });
	await setSection(request, 'IndividualGuaranty', { presented: false });
	const app = await newApplication(request, 'Flags');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);
	await expect(page.locator('section.terms h2')).toHaveText([
		'Terms and Conditions',
		'Payment Receipt',
		'Seasonal Addendum',
		'Next Day Funding'
	]);
	await agreeToTerms(page);
	await passIdentity(page, app.id);
	const group = page.getByRole('group', { name: 'Confirm each document' });
	await expect(group.getByRole('checkbox')).toHaveCount(4);
	await expect(group.getByLabel('I have read and accept the Seasonal Addendum')).toBeVisible();
	await fillSignForm(page, { ssn: freshSsn() });
	await page.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(page.getByRole('heading', { level: 1, name: TEXT.signedTitle })).toBeVisible();
	const d = await waitForDecision(request, app.id);
	expect(d.body.IsIndividualGuarantyAccepted).toBe(false);
	expect(d.body.AcceptanceLanguage).toEqual({
		Accept_TermsAndConditions_Prod: true,
		Accept_PaymentReceipt_Prod: true,
		Accept_IndividualGuaranty_Prod: false,
		Accept_SeasonalAddendum_Prod: true,
		Accept_NextDayFunding_Prod: true
	});
});

test('on a phone, a refusal that quotes a long unbroken name wraps inside the page', async ({
	page,
	request
}) => {
	await page.setViewportSize({ width: 390, height: 844 });
	const app = await newApplication(request, 'Long name');
	await walkTo(page, request, app, 'sign');
	await fillSignForm(page, {
		first: `Dana${'Q'.repeat(90)}`,
		ssn: freshSsn(),
		signature: 'Someone Else'
	});
	await page.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(page.getByText(/^Type your first and last name as given above/)).toBeVisible();
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('the agreement goes out once in the page the server draws, and shows however the page is reached', async ({
	page,
	request
}) => {
	const sentence = 'This sentence of the agreement is sent once per page.';
	await setSection(request, 'TermsAndConditions', {
		html: `<h3>Once</h3><p>${sentence}</p><table><tr><th>Fee</th><td>2.9%</td></tr></table>`
	});
	const app = await newApplication(request, 'Agreement once');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);
	await expect(page.getByText(sentence)).toBeVisible();

	// As the server draws it: the sentence once, not again in the page's data for the browser.
	const drawn = await (await page.request.get('/sign/terms')).text();
	expect(drawn.split(sentence).length - 1).toBe(1);
	expect(drawn).toContain("app.decode('DrawnSection'");

	// Drawn, then taken over by the page's script: the nodes the server drew stay (a hydration that
	// failed would draw the page again), table and all, and the page works.
	await page.addInitScript(() => {
		const w = window as unknown as { redrawn: number };
		w.redrawn = 0;
		new MutationObserver((changes) => {
			for (const c of changes) {
				if ((c.target as Element).closest?.('.terms-body')) w.redrawn += c.removedNodes.length;
				for (const n of c.removedNodes) {
					if (n instanceof Element && n.querySelector('.terms-body')) w.redrawn++;
				}
			}
		}).observe(document, { childList: true, subtree: true });
	});
	await page.reload();
	await ready(page);
	expect(await page.evaluate(() => (window as unknown as { redrawn: number }).redrawn)).toBe(0);
	const section = page.locator('section', {
		has: page.getByRole('heading', { level: 2, name: 'Terms and Conditions' })
	});
	await expect(section.getByText(sentence)).toBeVisible();
	await expect(section.getByRole('cell', { name: '2.9%' })).toBeVisible();
	await agreeToTerms(page);
	await passIdentity(page, app.id);

	// The review, reached in the browser (its data fetched on its own, HTML and all) and drawn.
	await page.getByRole('button', { name: 'Read the documents again' }).click();
	await expect(page).toHaveURL(/\/sign\/review$/);
	await expect(page.getByText(sentence)).toBeVisible();
	await page.reload();
	await ready(page);
	await expect(page.getByText(sentence)).toBeVisible();
});

test('with script, a consent to an agreement changed while it was read shows the new one, and the next goes on', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Agreement changed');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);
	await ready(page);
	const changed = 'The office changed this part while it was being read.';
	await setSection(request, 'TermsAndConditions', { html: `<p>${changed}</p>` });
	// Another tab of the same session shows the new version, which the session records as shown.
	const other = await page.context().newPage();
	await other.goto('/sign/terms');
	await expect(other.getByText(changed)).toBeVisible();
	await other.close();

	await expect(page.getByText(changed)).toHaveCount(0);
	await page.getByLabel(TEXT.consent).check();
	await page.getByRole('button', { name: 'Continue' }).click();
	await expect(
		page.getByText(/The agreement was updated while you were reading/).first()
	).toBeVisible();
	// The new text on the page, and the box to tick again for it.
	await expect(page.getByText(changed)).toBeVisible();
	await expect(page.getByLabel(TEXT.consent)).not.toBeChecked();
	await page.getByLabel(TEXT.consent).check();
	await page.getByRole('button', { name: 'Continue' }).click();
	await expect(page).toHaveURL(/\/sign\/identity$/);
});

test('on a phone, a business name of one long unbroken word wraps inside every page', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, `${'A'.repeat(120)} Long`);
	const width = () => document.documentElement.scrollWidth;
	const merchant = await browser.newPage({ viewport: { width: 390, height: 844 } });
	const { path } = await createLink(request, app.id);
	await merchant.goto(path);
	await expect(merchant.getByText(app.business).first()).toBeVisible();
	expect(await merchant.evaluate(width), 'link page').toBeLessThanOrEqual(390);
	await walkTo(merchant, request, app, 'sign');
	expect(await merchant.evaluate(width), 'sign step').toBeLessThanOrEqual(390);
	await merchant.goto('/sign/review');
	expect(await merchant.evaluate(width), 'review').toBeLessThanOrEqual(390);
	await merchant.close();

	const rep = await browser.newPage({ viewport: { width: 390, height: 844 } });
	await signIn(rep, REPS.sam);
	await rep.goto(appPath(app.id));
	await expect(rep.getByRole('heading', { level: 1 })).toBeVisible();
	expect(await rep.evaluate(width), 'the application in the console').toBeLessThanOrEqual(390);
	await rep.goto(`/rep?q=${app.id}`);
	expect(await rep.evaluate(width), 'the console list').toBeLessThanOrEqual(390);
	await rep.close();
});
