import { expect, test, type Page } from '@playwright/test';
import { check } from './support/a11y';
import {
	agreeToTerms,
	answerQuestions,
	createLink,
	fillSigner,
	freshSsn,
	newApplication,
	openLinkAndStart,
	passIdentity,
	ready,
	resetSandbox,
	startQuestions,
	walkTo
} from './support/flow';
import { REPS, SENT_NOTICE, TABLET, appPath, signIn } from './support/reps';

test.use({ viewport: TABLET });

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

/** check() leaves the page at phone size: back to the tablet the console is made for. */
async function look(page: Page, name: string, problems: string[]) {
	await check(page, name, problems);
	await page.setViewportSize(TABLET);
}

test('every rep page has no serious accessibility problem, on a tablet and a phone', async ({
	browser,
	page,
	request
}) => {
	test.setTimeout(240_000);
	const problems: string[] = [];

	await page.goto('/rep/login');
	await look(page, 'rep-01-login', problems);
	await ready(page);
	await page.getByLabel('Email').fill(REPS.sam.email);
	await page.getByLabel('Password').fill('not the password, but long');
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.getByRole('alert')).toBeVisible();
	await look(page, 'rep-02-login-failed', problems);

	// The applications in several states, and one merchant stuck at the known dead end.
	const declined = await newApplication(request, 'Axe declined');
	const m = await (await browser.newContext({ viewport: TABLET })).newPage();
	await walkTo(m, request, declined, 'sign');
	await m.getByRole('button', { name: 'Decline', exact: true }).click();
	await m.getByLabel('Reason (optional)').fill('We chose another processor.');
	await fillSigner(m, { ssn: freshSsn() });
	await m.getByRole('button', { name: 'Yes, decline' }).click();
	await expect(m).toHaveURL(/\/sign\/done$/);

	const locked = await newApplication(request, 'Axe locked');
	await walkTo(m, request, locked, 'identity');
	for (let i = 0; i < 2; i++) {
		await startQuestions(m);
		await answerQuestions(m, locked.id, 'wrong');
	}

	const stuck = await newApplication(request, 'Axe stuck');
	const { path } = await createLink(request, stuck.id, { email: stuck.email });
	await openLinkAndStart(m, path);
	await agreeToTerms(m);
	await passIdentity(m, stuck.id);
	const other = await createLink(request, stuck.id, { email: 'someone.else@example.net' });
	await m.goto(other.path);
	await expect(m.getByRole('button', { name: 'Start' })).toHaveCount(0);
	await look(m, 'rep-03-merchant-link-refused', problems);

	const fresh = await newApplication(request, 'Axe fresh');

	await signIn(page, REPS.sam);
	await look(page, 'rep-04-console', problems);
	// The focus ring on the console's bar stands out from the bar's blue (3:1 at least).
	await ready(page);
	const applications = page.getByRole('navigation', { name: 'Rep console' }).getByRole('link');
	await applications.focus();
	await page.keyboard.press('Shift+Tab');
	await page.keyboard.press('Tab');
	await expect(applications).toBeFocused();
	const ring = await applications.evaluate((el) => {
		const rgb = (c: string) => (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
		let bar: Element | null = el;
		while (bar && getComputedStyle(bar).backgroundColor === 'rgba(0, 0, 0, 0)') {
			bar = bar.parentElement;
		}
		const style = getComputedStyle(el);
		return {
			outline: rgb(style.outlineColor),
			width: style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth),
			bar: rgb(getComputedStyle(bar!).backgroundColor)
		};
	});
	expect(ring.width).toBeGreaterThanOrEqual(2);
	expect(contrast(ring.outline, ring.bar)).toBeGreaterThanOrEqual(3);
	await page.goto('/rep?q=zzz-nothing');
	await look(page, 'rep-05-console-no-match', problems);
	await page.goto(`/rep?q=Axe`);
	await look(page, 'rep-06-console-axe', problems);

	await page.goto(appPath(fresh.id));
	await look(page, 'rep-07-app-not-sent', problems);
	await ready(page);
	await page.getByLabel('Owner’s email').fill('not an address');
	await page.locator('form[action="?/send"]').evaluate((f) => f.setAttribute('novalidate', ''));
	await page.getByRole('button', { name: 'Send link' }).click();
	await expect(page.getByText('Enter an email address such as')).toBeVisible();
	await look(page, 'rep-08-app-send-error', problems);
	await page.getByLabel('Owner’s email').fill(fresh.email);
	await page.getByRole('button', { name: 'Send link' }).click();
	// Where the reader is after the redirect, so that it is read out (the title did not change).
	await expect(page.getByText(SENT_NOTICE)).toBeFocused();
	await look(page, 'rep-09-app-link-sent', problems);
	await page.getByRole('button', { name: 'Make a link to copy' }).click();
	await expect(page.getByRole('button', { name: 'Copy to clipboard' })).toBeVisible();
	// No notice of its own: the new link's field, labelled with until when it works, is read out.
	await expect(page.getByLabel(/^The new link \(works until/)).toBeFocused();
	// Shown from its start (the address), not scrolled to the token's end.
	expect(
		await page
			.getByLabel(/^The new link/)
			.evaluate((el: HTMLInputElement) => [el.selectionStart, el.scrollLeft])
	).toEqual([0, 0]);
	await look(page, 'rep-10-app-copied', problems);

	await page.goto(appPath(declined.id));
	await expect(page.getByText('We chose another processor.').first()).toBeVisible();
	await look(page, 'rep-11-app-declined', problems);
	await page.goto(appPath(locked.id));
	await expect(page.getByRole('region', { name: 'In person' })).toContainText(
		/Not before .*: the identity questions\s+are locked/
	);
	await look(page, 'rep-12-app-locked', problems);
	await page.goto(appPath(stuck.id));
	await expect(page.getByText(/^Needs you:/)).toBeVisible();
	await look(page, 'rep-13-app-dead-end', problems);

	const notHere = await page.goto(appPath(59999));
	expect(notHere?.status()).toBe(404);
	await look(page, 'rep-14-not-found', problems);

	// The password page, and its refusal (a wrong current password; nothing is changed).
	await page.goto('/rep/password');
	await look(page, 'rep-15-password', problems);
	await ready(page);
	await page.getByLabel('Current password').fill('not the password, but long');
	await page.getByLabel('New password', { exact: true }).fill('a new pass phrase, long enough');
	await page.getByLabel('New password again').fill('a new pass phrase, long enough');
	await page.getByRole('button', { name: 'Change password' }).click();
	await expect(page.getByText('That is not your current password.')).toBeVisible();
	await look(page, 'rep-16-password-refused', problems);

	expect(problems).toEqual([]);
});

/** WCAG's contrast ratio of two sRGB colours. */
function contrast(a: number[], b: number[]): number {
	const luminance = (c: number[]) => {
		const [r, g, bl] = c.map((v) => {
			const s = v / 255;
			return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
		});
		return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
	};
	const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
	return (hi! + 0.05) / (lo! + 0.05);
}
