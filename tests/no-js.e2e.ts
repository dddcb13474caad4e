import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { E2E } from './support/env';
import {
	agreeToTerms,
	answerQuestions,
	carriesSsn,
	createLink,
	digitsOf,
	fillSigner,
	fillSignForm,
	newApplication,
	noScriptContext,
	openLinkAndStart,
	receivedDecision,
	resetSandbox,
	startQuestions,
	TEXT,
	waitForDecision,
	walkTo
} from './support/flow';

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

/**
 * With `forceOrigin`, every request carries `Origin: <portal>`. A real browser sends
 * `Origin: null` on form posts from a page with `Referrer-Policy: no-referrer`; forcing it lets
 * the remaining steps be checked even while that alone breaks the plain-form flow.
 */
async function acceptWithoutScript(
	browser: Browser,
	request: APIRequestContext,
	forceOrigin: boolean
) {
	const context = await noScriptContext(
		browser,
		forceOrigin ? { extraHTTPHeaders: { origin: E2E.origin } } : {}
	);
	const page = await context.newPage();
	try {
		const app = await newApplication(request, forceOrigin ? 'No script origin' : 'No script');
		const { path } = await createLink(request, app.id);
		await openLinkAndStart(page, path);

		// A consent post without the box ticked (the browser's own check switched off).
		await page
			.locator('form[action="/sign/terms?/consent"]')
			.evaluate((f) => f.setAttribute('novalidate', ''));
		await page.getByRole('button', { name: 'Continue' }).click();
		await expect(page.locator('#consent-error')).toBeVisible();
		// The page comes back at its top, the message at the end of the long agreement: the top
		// says so, with a way down to the box.
		const summary = page.getByRole('alert').filter({ hasText: 'You haven’t agreed yet' });
		await expect(summary).toBeInViewport();
		await summary.getByRole('link', { name: 'Go to it' }).click();
		await expect(page.locator('#consent-error')).toBeInViewport();
		await agreeToTerms(page);

		await page.getByRole('button', { name: 'Start the questions' }).click();
		await expect(page.locator('fieldset')).toHaveCount(5);
		// Without script the limit is stated from Start instead of a ticking timer, and as a time of
		// day in the office's zone, named.
		await expect(page.getByText('within 2 minutes of pressing Start')).toBeVisible();
		await expect(page.locator('.countdown')).toContainText(
			/within 2 minutes of pressing Start: by \w+, \w+ \d+, \d{4} at \d+:\d\d:\d\d [AP]M Central (Standard|Daylight) Time\./
		);
		// Submitting with questions unanswered keeps the choice made and names the gaps.
		await page.locator('fieldset').first().locator('input[type=radio]').first().check();
		await page.getByRole('button', { name: 'Submit answers' }).click();
		await expect(page.getByText('Answer every question, then submit.')).toBeVisible();
		// The summary names each question left, a link to it.
		const left = page.getByRole('alert').getByRole('link');
		// Each names its question as the legend does, less the position a screen reader hears first.
		const prompts = (await page.locator('legend').allInnerTexts()).map((t) =>
			t.replace(/^Question \d+ of \d+:\s*/, '')
		);
		expect(prompts[0]).not.toMatch(/^Question/);
		// The position and the prompt are two words apart in the text, whatever reads it.
		expect(await page.locator('legend').first().textContent()).toMatch(/^Question 1 of 5: \S/);
		await expect(left).toHaveText(prompts.slice(1));
		await expect(page.getByRole('group', { name: `Question 2 of 5: ${prompts[1]}` })).toBeVisible();
		await left.nth(1).click();
		await expect(page.locator('legend').nth(2)).toBeInViewport();
		const third = await page.locator('fieldset').nth(2).getAttribute('id');
		await expect(page).toHaveURL(new RegExp(`#${third}$`));
		await expect(
			page.locator('fieldset').first().locator('input[type=radio]').first()
		).toBeChecked();
		await answerQuestions(page, app.id, 'right');
		await expect(page).toHaveURL(/\/sign\/sign$/);

		// Decline's first press only asks: with no SSN typed, none is asked for "again".
		await page.getByRole('button', { name: 'Decline', exact: true }).click();
		await expect(page.getByRole('heading', { level: 1, name: TEXT.declineTitle })).toBeVisible();
		await expect(page.locator('#ssn-again')).toHaveCount(0);
		await page.getByRole('link', { name: 'Go back' }).click();

		// A server-side error keeps what was typed, except the SSN.
		const ssn = forceOrigin ? '407-38-2261' : '407-38-2262';
		await fillSignForm(page, {
			ssn,
			email: 'morgan@',
			last: 'Testwell-Ortiz',
			sections: ['Terms and Conditions']
		});
		await page
			.locator('form[action="/sign/sign?/accept"]')
			.evaluate((f) => f.setAttribute('novalidate', ''));
		await page.getByRole('button', { name: 'Accept and sign' }).click();
		await expect(page.getByText(/Please fix the \d+ highlighted fields below/)).toBeVisible();
		// …each named by its label, a link to it.
		const toFix = page.getByRole('alert').getByRole('link');
		await expect(toFix).toHaveText([
			'I have read and accept the Payment Receipt section',
			'I have read and accept the Individual Guaranty section',
			'I have read and accept the Next Day Funding section',
			'Email',
			// Not sent back, so to be typed again: named with the fields to fix, and counted.
			'Social Security Number: type it again'
		]);
		await expect(page.getByText('Please fix the 5 highlighted fields below')).toBeVisible();
		await toFix.filter({ hasText: /^Email$/ }).click();
		await expect(page.getByLabel('Email', { exact: true })).toBeFocused();
		await expect(page.locator('label[for="email"]')).toBeInViewport();
		await toFix.first().click();
		await expect(
			page.getByLabel('I have read and accept the Payment Receipt section')
		).toBeFocused();
		await expect(page.getByLabel('Email', { exact: true })).toHaveValue('morgan@');
		// Names not the owner's, said on the page that comes back (without script, not as typed).
		await expect(page.locator('#not-owner')).toContainText('The application’s owner is');
		await expect(page.getByLabel('I have read and accept the Terms and Conditions')).toBeChecked();
		await expect(page.getByLabel('Social Security Number')).toHaveValue('');
		// …and the page says so, beside the field.
		await expect(page.locator('#ssn-again')).toHaveText(/type it again/);
		await expect(page.getByLabel('Social Security Number')).toHaveAttribute(
			'aria-describedby',
			/\bssn-again\b/
		);
		const html = await page.content();
		expect(html).not.toContain(digitsOf(ssn));
		expect(html).not.toContain(ssn);
		expect(await receivedDecision(request, app.id)).toBeNull();

		await fillSignForm(page, { ssn, email: 'morgan@testshop.example', last: 'Testwell' });
		await page.getByRole('button', { name: 'Accept and sign' }).click();
		await expect(page).toHaveURL(/\/sign\/done$/);
		await expect(page.getByRole('heading', { level: 1, name: TEXT.signedTitle })).toBeVisible();

		const d = await waitForDecision(request, app.id);
		expect(d.body.IsAccepted).toBe(true);
		expect(carriesSsn(d, ssn)).toBe(true);
		expect(carriesSsn(d, '219-09-9999')).toBe(false);
		await page.reload();
		await expect(page.getByText(String(d.merchantDecisionId), { exact: true })).toBeVisible();
		await expect(
			page.getByRole('link', { name: 'Download your signed application (PDF)' })
		).toBeVisible();
	} finally {
		await context.close();
	}
}

test('the whole accept flow works with JavaScript off', async ({ browser, request }) => {
	await acceptWithoutScript(browser, request, false);
});

test('with JavaScript off and a same-origin Origin header forced, every later step works', async ({
	browser,
	request
}) => {
	await acceptWithoutScript(browser, request, true);
});

test('a decline whose hidden answer was changed on the way is asked again, the reason kept', async ({
	browser,
	request
}) => {
	const context = await noScriptContext(browser);
	const page = await context.newPage();
	try {
		const app = await newApplication(request, 'No script decline changed');
		await walkTo(page, request, app, 'sign');
		await page.getByRole('button', { name: 'Decline', exact: true }).click();
		await page.getByLabel('Reason (optional)').fill('Not ready yet.');
		await fillSigner(page, { ssn: '219-44-6083' });
		await page
			.locator('input[name="confirm"]')
			.evaluate((i: HTMLInputElement) => (i.value = 'maybe'));
		await page.getByRole('button', { name: 'Yes, decline' }).click();
		await expect(page.getByRole('alert')).toContainText('This form came back changed');
		await expect(page.getByRole('heading', { level: 1, name: TEXT.declineTitle })).toBeVisible();
		await expect(page.getByLabel('Reason (optional)')).toHaveValue('Not ready yet.');
		expect(await receivedDecision(request, app.id)).toBeNull();
		await fillSigner(page, { ssn: '219-44-6083' });
		await page.getByRole('button', { name: 'Yes, decline' }).click();
		await expect(page.getByRole('heading', { level: 1, name: TEXT.declinedTitle })).toBeVisible();
		expect((await waitForDecision(request, app.id)).body.IsAccepted).toBe(false);
	} finally {
		await context.close();
	}
});

test('declining works with JavaScript off', async ({ browser, request }) => {
	const context = await noScriptContext(browser);
	const page = await context.newPage();
	try {
		const app = await newApplication(request, 'No script decline');
		const { path } = await createLink(request, app.id);
		await openLinkAndStart(page, path);
		await agreeToTerms(page);
		await startQuestions(page);
		await answerQuestions(page, app.id, 'right');
		await expect(page).toHaveURL(/\/sign\/sign$/);

		// Decline's first press only asks: with no SSN typed, none is asked for "again".
		await page.getByRole('button', { name: 'Decline', exact: true }).click();
		await expect(page.getByRole('heading', { level: 1, name: TEXT.declineTitle })).toBeVisible();
		await expect(page.locator('#ssn-again')).toHaveCount(0);
		await page.getByRole('link', { name: 'Go back' }).click();

		await fillSigner(page, { ssn: '219-44-6083' });
		await page.getByRole('button', { name: 'Decline', exact: true }).click();
		await expect(page).toHaveURL(/\/sign\/sign\?decline$/);
		await expect(page.getByRole('heading', { level: 1, name: TEXT.declineTitle })).toBeVisible();
		// The SSN typed before the press never comes back, and the page says so.
		await expect(page.locator('#ssn-again')).toHaveText(/type it again/);
		await expect(page.getByLabel('Social Security Number')).toHaveValue('');
		await page.getByLabel('Reason (optional)').fill('Not ready yet.');
		await fillSigner(page, { ssn: '219-44-6083' });
		await page.getByRole('button', { name: 'Yes, decline' }).click();
		await expect(page.getByRole('heading', { level: 1, name: TEXT.declinedTitle })).toBeVisible();
		const d = await waitForDecision(request, app.id);
		expect(d.body.IsAccepted).toBe(false);

		// Back from the done page finds pages fetched, not posted: the question came by a redirect,
		// and now that the decision is on record it leads to the done page again (no "Confirm Form
		// Resubmission").
		await page.goBack();
		await expect(page).toHaveURL(/\/sign\/done$/);
		await expect(page.getByRole('heading', { level: 1, name: TEXT.declinedTitle })).toBeVisible();
	} finally {
		await context.close();
	}
});
