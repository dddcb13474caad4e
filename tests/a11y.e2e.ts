import { expect, test } from '@playwright/test';
import { check } from './support/a11y';
import {
	DEMO,
	TEXT,
	agreeToTerms,
	answerQuestions,
	createLink,
	fillSignForm,
	freshSsn,
	newApplication,
	openLinkAndStart,
	resetSandbox,
	startQuestions
} from './support/flow';

/**
 * The words of the elements' own text (not their children's) that a line break splits. Run in the
 * page.
 */
function splitWords(elements: Element[]): string[] {
	const out: string[] = [];
	for (const el of elements) {
		for (const node of el.childNodes) {
			if (node.nodeType !== Node.TEXT_NODE) continue;
			for (const word of node.textContent!.matchAll(/\S{2,}/g)) {
				const range = document.createRange();
				range.setStart(node, word.index);
				range.setEnd(node, word.index + word[0].length);
				const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
				if (lines.size > 1) out.push(word[0]);
			}
		}
	}
	return out;
}

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

test('every step of an accept has no serious accessibility problem, on a phone and a tablet', async ({
	page,
	request
}) => {
	test.setTimeout(120_000);
	const problems: string[] = [];
	const app = await newApplication(request, 'Axe');
	const { path } = await createLink(request, app.id);

	await page.goto(path);
	await check(page, '01-link', problems);
	await openLinkAndStart(page, path);
	await check(page, '02-terms', problems);

	// The consent error.
	await page
		.locator('form[action="/sign/terms?/consent"]')
		.evaluate((f) => f.setAttribute('novalidate', ''));
	await page.getByRole('button', { name: 'Continue' }).click();
	await expect(page.locator('#consent-error')).toBeVisible();
	await check(page, '03-terms-error', problems);
	await agreeToTerms(page);
	await check(page, '04-identity-intro', problems);

	await startQuestions(page);
	await expect(page.getByRole('timer')).toBeVisible();
	await check(page, '05-identity-questions', problems);
	await answerQuestions(page, app.id, 'wrong');
	await expect(page.getByText(TEXT.mismatch)).toBeVisible();
	await check(page, '06-identity-failed', problems);
	await startQuestions(page);
	await answerQuestions(page, app.id, 'right');
	await expect(page).toHaveURL(/\/sign\/sign$/);
	await check(page, '07-sign', problems);
	// The SSN toggle keeps its name and says its state by being pressed.
	const reveal = page.getByRole('button', { name: 'Show SSN' });
	await expect(reveal).toHaveAttribute('aria-pressed', 'false');
	await reveal.click();
	await expect(reveal).toHaveAttribute('aria-pressed', 'true');
	await expect(page.getByLabel('Social Security Number')).toHaveAttribute('type', 'text');
	await reveal.click();
	await expect(page.getByLabel('Social Security Number')).toHaveAttribute('type', 'password');
	// Autofill fills the signer's email, not the notices' one with it.
	await expect(page.getByLabel('Notification email')).toHaveAttribute(
		'autocomplete',
		/^section-\S+ email$/
	);
	await page.getByRole('button', { name: 'Read the documents again' }).click();
	await expect(page).toHaveURL(/\/sign\/review$/);
	await check(page, '07b-review', problems);
	await page.getByRole('link', { name: 'Back to signing' }).first().click();
	await expect(page).toHaveURL(/\/sign\/sign$/);

	await page
		.locator('form[action="/sign/sign?/accept"]')
		.evaluate((f) => f.setAttribute('novalidate', ''));
	await page.getByLabel('Email', { exact: true }).fill('');
	await page.getByLabel('Social Security Number').fill('12');
	await page.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(page.getByText(/highlighted fields/)).toBeVisible();
	await check(page, '08-sign-errors', problems);

	await page.getByRole('button', { name: 'Decline', exact: true }).click();
	await expect(page.getByRole('heading', { level: 1, name: TEXT.declineTitle })).toBeVisible();
	await check(page, '09-decline-confirm', problems);
	await page.getByRole('link', { name: 'Go back' }).click();
	await expect(
		page.getByRole('heading', { level: 1, name: 'Sign your application' })
	).toBeVisible();

	await fillSignForm(page, { ssn: freshSsn(), email: app.email });
	await page.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(page.getByRole('heading', { level: 1, name: TEXT.signedTitle })).toBeVisible();
	await check(page, '10-done', problems);

	// The error pages.
	await page.goto(path);
	await check(page, '11-link-used', problems);
	await page.goto('/s/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
	await check(page, '12-link-unknown', problems);
	await page.context().clearCookies();
	await page.goto('/sign/terms');
	await check(page, '13-no-session', problems);

	expect(problems).toEqual([]);
});

test('the locked and bureau-down identity pages have no serious accessibility problem', async ({
	page,
	request
}) => {
	const problems: string[] = [];
	const { path } = await createLink(request, DEMO.bureauDown);
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await page.getByRole('button', { name: 'Start the questions' }).click();
	await expect(page.getByText(TEXT.bureauDown)).toBeVisible();
	await check(page, '14-identity-bureau-down', problems);

	// A revoked link page.
	await createLink(request, DEMO.bureauDown);
	await page.goto(path);
	await expect(page.getByText('replaced by a newer one')).toBeVisible();
	await check(page, '15-link-revoked', problems);
	expect(problems).toEqual([]);
});

test('the fee table in the agreement reads on a phone: no word is broken across lines', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Table');
	const { path } = await createLink(request, app.id);
	await page.setViewportSize({ width: 390, height: 844 });
	await openLinkAndStart(page, path);
	const broken = await page
		.locator('.terms-body table')
		.first()
		.locator('th, td')
		.evaluateAll(splitWords);
	expect(broken, 'words split across lines in the fee table').toEqual([]);
});

test('on a small phone with large text the steps keep each label whole', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Steps');
	const { path } = await createLink(request, app.id);
	await page.setViewportSize({ width: 320, height: 640 });
	await openLinkAndStart(page, path);
	await page.evaluate(() => (document.documentElement.style.fontSize = '200%'));
	const labels = page.getByRole('navigation', { name: 'Signing steps' }).locator('.label');
	await expect(labels).toHaveCount(4);
	expect(await labels.evaluateAll(splitWords), 'words split across lines').toEqual([]);
});

test('on a small phone with large text the identity questions keep their words whole', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Questions');
	const { path } = await createLink(request, app.id);
	await page.setViewportSize({ width: 320, height: 640 });
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await startQuestions(page);
	await page.evaluate(() => (document.documentElement.style.fontSize = '200%'));
	const prompts = page.locator('legend');
	await expect(prompts).toHaveCount(5);
	expect(await prompts.evaluateAll(splitWords), 'words split across lines').toEqual([]);
});
