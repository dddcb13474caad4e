// The merchant's path as they live it, at a phone's and a tablet's size, with JavaScript on and
// off: what is signed, nothing typed is lost, the address bar shows the step on screen, and "I
// don't want to sign" works from every step. Screenshots of every step land in .e2e/shots.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { resolve } from 'node:path';
import { E2E } from './support/env';
import {
	TEXT,
	agreeToTerms,
	answerQuestions,
	createLink,
	fillSignForm,
	freshSsn,
	newApplication,
	noScriptContext,
	openLinkAndStart,
	passIdentity,
	ready,
	rememberTyped,
	resetSandbox,
	startQuestions,
	waitForDecision,
	type TestApplication
} from './support/flow';

const SIZES = [
	{ name: 'phone', viewport: { width: 390, height: 844 } },
	{ name: 'tablet', viewport: { width: 820, height: 1180 } }
] as const;
const SHOTS = resolve(E2E.dir, 'shots');

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

async function contextFor(browser: Browser, js: boolean, size: (typeof SIZES)[number]) {
	const options = { viewport: size.viewport, timezoneId: 'America/New_York' };
	return js ? browser.newContext(options) : noScriptContext(browser, options);
}

async function shot(page: Page, name: string) {
	mkdirSync(SHOTS, { recursive: true });
	await page.screenshot({ path: resolve(SHOTS, `${name}.png`), fullPage: true });
}

/** Walks a fresh application's link to the sign step. */
async function toSign(page: Page, app: TestApplication) {
	const { path } = await createLink(page.request, app.id);
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await passIdentity(page, app.id);
	return path;
}

/** The done page of a decline the portal recorded, the link ended, the rep's note queued. */
async function expectDeclinedEarly(
	page: Page,
	app: TestApplication,
	link: string,
	reason: string,
	js: boolean
) {
	await expect(page).toHaveURL(/\/sign\/done$/);
	await expect(page.getByRole('heading', { level: 1, name: TEXT.declinedTitle })).toBeVisible();
	await expect(page.getByText('You declined the application.')).toBeVisible();
	await expect(page.getByText('This link no longer works')).toBeVisible();
	// No list of steps marking identity and signing as completed: they never were.
	await expect(page.getByRole('navigation', { name: 'Signing steps' })).toHaveCount(0);
	// In the merchant's zone with script, else the office's; named, never bare UTC.
	await expect(page.locator('time')).toContainText(
		js ? /Eastern (Standard|Daylight) Time/ : /Central (Standard|Daylight) Time/
	);
	const again = await page.request.get(link);
	expect(again.status(), 'the link is used up').toBe(410);
	// No copies are made, and their addresses say why (they answered 500).
	for (const pdf of ['/sign/done/certificate.pdf', '/sign/done/signed-copy.pdf']) {
		const res = await page.request.get(pdf);
		expect(res.status(), pdf).toBe(404);
		expect(await res.text()).toContain('You declined before your identity was confirmed');
	}
	const mailbox = await (await page.request.get('/dev/mailbox')).text();
	expect(mailbox).toContain(`Declined: ${app.business}`);
	if (reason) rememberTyped(reason);
}

async function declineHere(page: Page, reason: string) {
	await ready(page);
	await page.getByText('I don’t want to sign').click();
	await page.getByLabel('Reason (optional)').fill(reason);
	await page.getByRole('button', { name: 'Decline the application' }).click();
}

for (const size of SIZES) {
	for (const js of [true, false]) {
		const label = `${size.name}, JavaScript ${js ? 'on' : 'off'}`;
		const tag = `${size.name}-${js ? 'js' : 'nojs'}`;

		test.describe(label, () => {
			test('decline from the link page, terms, identity and lockout: recorded by the portal, link ended, rep told', async ({
				browser
			}) => {
				test.setTimeout(120_000);
				const context = await contextFor(browser, js, size);
				const page = await context.newPage();

				// The link page; a reason with an SSN is refused and comes back without it.
				const a = await newApplication(page.request, 'Decline link');
				const { path: linkA } = await createLink(page.request, a.id);
				await page.goto(linkA);
				// How long the link works, in the merchant's zone with script, else the office's.
				await expect(page.getByText('This link works until')).toContainText(
					js ? /Eastern (Standard|Daylight) Time/ : /Central (Standard|Daylight) Time/
				);
				await shot(page, `${tag}-1-link`);
				await declineHere(page, 'my number is 123-45-6789');
				await expect(page.getByText('leave your Social Security Number out')).toBeVisible();
				await expect(page.getByLabel('Reason (optional)')).toHaveValue(/my number is/);
				expect(await page.content()).not.toContain('123-45-6789');
				await page.getByLabel('Reason (optional)').fill('Call me at 217-555-0143 first');
				await page.getByRole('button', { name: 'Decline the application' }).click();
				await expectDeclinedEarly(page, a, linkA, 'Call me at 217-555-0143 first', js);
				await shot(page, `${tag}-9-declined-early`);

				// Terms.
				const b = await newApplication(page.request, 'Decline terms');
				const { path: linkB } = await createLink(page.request, b.id);
				await openLinkAndStart(page, linkB);
				await shot(page, `${tag}-2-terms`);
				// The fee table fits a 390 px phone and a tablet, and says nothing; on a narrower
				// phone it scrolls sideways, and says so just above its first row.
				const table = page.locator('.terms-body table').first();
				const fee = () =>
					table.evaluate((t) => ({
						overflows: t.scrollWidth > t.clientWidth,
						cue: getComputedStyle(t, '::before').display,
						words: getComputedStyle(t, '::before').content
					}));
				expect(await fee()).toMatchObject({ overflows: false, cue: 'none' });
				if (size.name === 'phone') {
					await page.setViewportSize({ width: 360, height: 780 });
					await expect.poll(fee).toMatchObject({ overflows: true, cue: 'block' });
					expect((await fee()).words).toContain('Swipe the table sideways');
					await page.setViewportSize(size.viewport);
				}
				// Without script a refused decline comes back at the top of the long agreement: the top
				// says so, with a way down to the reason.
				await declineHere(page, 'my ssn 123-45-6789');
				const summary = page.getByRole('alert').filter({ hasText: 'Your decline wasn’t sent' });
				await expect(summary).toBeVisible();
				if (!js) await expect(summary).toBeInViewport();
				await summary.getByRole('link', { name: 'Go to it' }).click();
				await expect(page.getByText('leave your Social Security Number out')).toBeInViewport();
				await expect(page.getByLabel('Reason (optional)')).toHaveValue(/my ssn/);
				await page.getByLabel('Reason (optional)').fill('Too expensive for us');
				await page.getByRole('button', { name: 'Decline the application' }).click();
				await expectDeclinedEarly(page, b, linkB, 'Too expensive for us', js);

				// Identity, before Start and while the questions are open.
				const c = await newApplication(page.request, 'Decline identity');
				const { path: linkC } = await createLink(page.request, c.id);
				await openLinkAndStart(page, linkC);
				await agreeToTerms(page);
				await shot(page, `${tag}-3-identity-intro`);
				await startQuestions(page);
				await shot(page, `${tag}-4-identity-questions`);
				await declineHere(page, '');
				await expectDeclinedEarly(page, c, linkC, '', js);

				// Locked out after two wrong sets: the page says when the lock lifts, in a named zone.
				const d = await newApplication(page.request, 'Decline locked');
				const { path: linkD } = await createLink(page.request, d.id);
				await openLinkAndStart(page, linkD);
				await agreeToTerms(page);
				await startQuestions(page);
				await answerQuestions(page, d.id, 'wrong');
				await expect(page.getByText(TEXT.mismatch)).toBeVisible();
				await startQuestions(page);
				await answerQuestions(page, d.id, 'wrong');
				await expect(page.getByText(TEXT.locked)).toBeVisible();
				const when = page.getByText('You can try again after');
				await expect(when).toContainText(
					js ? /Eastern (Standard|Daylight) Time/ : /Central (Standard|Daylight) Time/
				);
				await expect(when).toContainText(/, from your link\./);
				await shot(page, `${tag}-5-locked`);
				await declineHere(page, 'I will sign in person');
				await expectDeclinedEarly(page, d, linkD, 'I will sign in person', js);
				await context.close();
			});

			test('the sign step shows what is signed; the review round trip and the decline question keep what was typed', async ({
				browser
			}) => {
				test.setTimeout(90_000);
				const context = await contextFor(browser, js, size);
				const page = await context.newPage();
				const app = await newApplication(page.request, 'Review');
				await toSign(page, app);

				const what = page.getByRole('region', { name: 'What you are signing' });
				await expect(what).toContainText(app.business);
				await expect(what).toContainText(`${app.first} ${app.last}`);
				const open = what.getByRole('link', { name: /Open your application \(PDF, \d+ pages?\)/ });
				const pages = Number(/(\d+) page/.exec((await open.textContent()) ?? '')![1]);
				const pdf = await page.request.get((await open.getAttribute('href'))!);
				expect(pdf.status()).toBe(200);
				expect(pdf.headers()['content-type']).toBe('application/pdf');
				expect(pdf.headers()['content-disposition']).toMatch(/^inline;/);
				const doc = await PDFDocument.load(await pdf.body(), { updateMetadata: false });
				expect(doc.getPageCount()).toBe(pages);
				await shot(page, `${tag}-6-sign`);

				// Tick two boxes, change the names and emails, type a signature and an SSN.
				const group = page.getByRole('group', { name: 'Confirm each document' });
				const boxes = await group.getByRole('checkbox').all();
				await ready(page);
				await boxes[0]!.check();
				await boxes[2]!.check();
				const typed = {
					first: 'Morgana',
					last: 'Testwell-Ray',
					email: 'morgana@shop.example',
					notificationEmail: 'notices@shop.example'
				};
				rememberTyped(...Object.values(typed));
				await page.getByLabel('First name').fill(typed.first);
				await page.getByLabel('Last name').fill(typed.last);
				await page.getByLabel('Email', { exact: true }).fill(typed.email);
				await page.getByLabel('Notification email').fill(typed.notificationEmail);
				await page.getByLabel('Type your full name to sign').fill('Morgana Testwell-Ray');
				await page.getByLabel('Social Security Number').fill(freshSsn());

				const expectKept = async () => {
					await expect(page).toHaveURL(/\/sign\/sign$/);
					// Polled: the address is /sign/sign both before the round trip and after it.
					const now = page.getByRole('group', { name: 'Confirm each document' });
					await expect
						.poll(async () =>
							(
								await now
									.getByRole('checkbox')
									.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).checked))
							).slice(0, 3)
						)
						.toEqual([true, false, true]);
					await expect(page.getByLabel('First name')).toHaveValue(typed.first);
					await expect(page.getByLabel('Last name')).toHaveValue(typed.last);
					await expect(page.getByLabel('Email', { exact: true })).toHaveValue(typed.email);
					await expect(page.getByLabel('Notification email')).toHaveValue(typed.notificationEmail);
					await expect(page.getByLabel('Type your full name to sign')).toHaveValue(
						'Morgana Testwell-Ray'
					);
					// The SSN is never sent back, and the page says to type it again.
					await expect(page.getByLabel('Social Security Number')).toHaveValue('');
					await expect(
						page.getByText('the number you typed was not sent back to this page: type it again')
					).toBeVisible();
				};

				await page.getByRole('button', { name: 'Read the documents again' }).click();
				await expect(page).toHaveURL(/\/sign\/review$/);
				await shot(page, `${tag}-7-review`);
				await page.getByRole('link', { name: 'Back to signing' }).first().click();
				await expectKept();

				// The decline question keeps what was typed, and going back from it too. A number
				// typed again is not carried to the question's form, which says so, script or not.
				await page.getByLabel('Social Security Number').fill(freshSsn());
				await page.getByRole('button', { name: 'Decline', exact: true }).click();
				await expect(
					page.getByRole('heading', { level: 1, name: TEXT.declineTitle })
				).toBeVisible();
				await expect(page.getByLabel('First name')).toHaveValue(typed.first);
				await expect(page.getByLabel('Email', { exact: true })).toHaveValue(typed.email);
				await expect(page.getByLabel('Social Security Number')).toHaveValue('');
				await expect(
					page.getByText('the number you typed was not sent back to this page: type it again')
				).toBeVisible();
				await shot(page, `${tag}-8-decline-question`);
				await page.getByRole('link', { name: 'Go back' }).click();
				await expectKept();
				await context.close();
			});

			test('the identity intro states the limit and the cost of Start; reloading keeps the set, the clock and the answers', async ({
				browser
			}) => {
				const context = await contextFor(browser, js, size);
				const page = await context.newPage();
				const app = await newApplication(page.request, 'Reload');
				const { path } = await createLink(page.request, app.id);
				await openLinkAndStart(page, path);
				await agreeToTerms(page);
				await expect(page.getByText('There is a time limit, usually 2 minutes.')).toBeVisible();
				await expect(page.getByText('The credit bureau sets the exact limit')).toBeVisible();
				await expect(page.getByText('Once started, a try counts unless you pass.')).toBeVisible();
				await startQuestions(page);
				if (js) {
					await expect(page.getByText('You have 2 minutes for these questions.')).toBeVisible();
				} else {
					await expect(page.getByText('within 2 minutes of pressing Start')).toBeVisible();
				}
				const prompts = await page.locator('legend').allInnerTexts();
				const first = page.locator('fieldset').first().locator('input[type=radio]').nth(1);
				await first.check();
				const clock = js ? await page.getByRole('timer').innerText() : '';
				await page.waitForTimeout(js ? 2_500 : 0);
				await page.reload();
				await expect(page.locator('fieldset')).toHaveCount(5);
				expect(await page.locator('legend').allInnerTexts(), 'the same set').toEqual(prompts);
				// The questions' cards are as wide as the form, in line with the page's other boxes
				// (browsers set a fieldset in by 2 px a side).
				const edges = async (selector: string) => {
					const box = (await page.locator(selector).first().boundingBox())!;
					return [Math.round(box.x), Math.round(box.x + box.width)];
				};
				expect(await edges('fieldset')).toEqual(await edges('form:has(fieldset)'));
				if (js) {
					await ready(page);
					await expect(
						page.locator('fieldset').first().locator('input[type=radio]').nth(1)
					).toBeChecked();
					// The same clock: it went on counting, it did not start again.
					const left = (t: string) => {
						const m = /(\d+):(\d\d)/.exec(t)!;
						return Number(m[1]) * 60 + Number(m[2]);
					};
					await expect
						.poll(async () => left(await page.getByRole('timer').innerText()))
						.toBeLessThan(left(clock));
				}
				await context.close();
			});

			test('Back onto an earlier step, then Accept: the address shows the sign step and signing works', async ({
				browser
			}) => {
				const context = await contextFor(browser, js, size);
				const page = await context.newPage();
				const app = await newApplication(page.request, 'Back');
				await toSign(page, app);
				await page.goBack();
				await expect(page).toHaveURL(/\/sign\/sign$/);
				await expect(
					page.getByRole('heading', { level: 1, name: 'Sign your application' })
				).toBeVisible();
				await fillSignForm(page, { ssn: freshSsn() });
				await page.getByRole('button', { name: 'Accept and sign' }).click();
				await expect(page).toHaveURL(/\/sign\/done$/);
				await expect(page.getByRole('heading', { level: 1, name: TEXT.signedTitle })).toBeVisible();
				await waitForDecision(page.request, app.id);
				// Back from the done page leads on to it again, its heading in sight: the sign step's
				// scroll, far down its form, is not put back on it.
				await page.goBack();
				await expect(page).toHaveURL(/\/sign\/done$/);
				await expect(
					page.getByRole('heading', { level: 1, name: TEXT.signedTitle })
				).toBeInViewport();
				await context.close();
			});
		});
	}
}
