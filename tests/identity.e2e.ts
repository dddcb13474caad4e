import { expect, request as apiRequest, test, type Browser, type Page } from '@playwright/test';
import { check } from './support/a11y';
import { DEMO_APPLICATIONS } from '../src/lib/server/sandbox/seed-data';
import {
	DEMO,
	TEXT,
	agreeToTerms,
	answerQuestions,
	controlAnswers,
	createLink,
	holdScripts,
	newApplication,
	noScriptContext,
	openLinkAndStart,
	passIdentity,
	ready,
	replayPost,
	resetSandbox,
	ruleAnswers,
	setTimeLimit,
	startQuestions
} from './support/flow';
import { REPS, appPath, consoleEntry, repPage } from './support/reps';
import { startSecondServer } from './support/second-server';

const demoDoc = (id: number) => {
	const demo = DEMO_APPLICATIONS.find((a) => a.id === id);
	if (!demo) throw new Error(`no demo application ${id}`);
	return demo.request;
};

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

test('wrong answers once, then right answers with a fresh set (50001)', async ({
	page,
	request
}) => {
	const { path } = await createLink(request, DEMO.ordinary);
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await expect(page.getByText(/You have 2 of 2\s+tries left/)).toBeVisible();

	await startQuestions(page);
	await expect(page.getByRole('timer')).toBeVisible();
	// The reader starts at the time limit, not at the top of a page that seems unchanged.
	await expect(page.getByText(/^You have \d+ minutes? for these questions\.$/)).toBeFocused();
	const firstSet = await page.locator('fieldset').allInnerTexts();
	await answerQuestions(page, DEMO.ordinary, 'wrong');

	await expect(page).toHaveURL(/\/sign\/identity$/);
	await expect(page.getByText(TEXT.mismatch)).toBeVisible();
	await expect(page.getByText(TEXT.oneMoreTry)).toBeVisible();
	await expect(page.getByText(/You have 1 of 2\s+tries left/)).toBeVisible();

	await startQuestions(page);
	const secondSet = await page.locator('fieldset').allInnerTexts();
	expect(secondSet, 'a retake gets a fresh question set').not.toEqual(firstSet);
	// The rule the sandbox README gives for demos picks the same answers as its control API.
	expect(await ruleAnswers(page, demoDoc(DEMO.ordinary))).toEqual(
		await controlAnswers(request, DEMO.ordinary)
	);
	// A bureau slow to answer: the button says the answers are being checked meanwhile.
	await page.route('**/sign/identity?/answer', async (route) => {
		await new Promise((r) => setTimeout(r, 1_500));
		await route.continue();
	});
	await answerQuestions(page, DEMO.ordinary, 'right');
	await expect(page.getByRole('button', { name: 'Checking your answers…' })).toBeDisabled();
	await expect(page).toHaveURL(/\/sign\/sign$/);
	await expect(
		page.getByRole('heading', { level: 1, name: 'Sign your application' })
	).toBeVisible();
});

test('a reload keeps the answers chosen, and one picked before the page was ready stays picked', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Identity reload');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await startQuestions(page);
	const question = (n: number) => page.locator('fieldset').nth(n).getByRole('radio');
	await question(0).nth(1).check();

	// On a slow phone the reloaded questions are there before their scripts.
	const release = await holdScripts(page);
	await page.reload({ waitUntil: 'commit' });
	await question(1).nth(2).check();
	release();
	await ready(page);
	// The first answer was kept in the tab and comes back; the second was never unpicked.
	await expect(question(0).nth(1)).toBeChecked();
	await expect(question(1).nth(2)).toBeChecked();
	await expect(page.locator('input[type="radio"]:checked')).toHaveCount(2);
});

test('the clock stays small at the top, and Shift+Tab back to an answer brings it out from under the clock', async ({
	page,
	request
}) => {
	// A small phone with its text at twice the size (every font size is in rem), and a common
	// phone at normal size.
	for (const [viewport, text] of [
		[{ width: 320, height: 640 }, '200%'],
		[{ width: 390, height: 844 }, '']
	] as const) {
		const app = await newApplication(request, 'Identity clock');
		const { path } = await createLink(request, app.id);
		await page.setViewportSize(viewport);
		await openLinkAndStart(page, path);
		await agreeToTerms(page);
		await startQuestions(page);
		await page.evaluate((size) => (document.documentElement.style.fontSize = size), text);
		const clock = page.locator('.countdown');
		const box = (await clock.boundingBox())!;
		expect(box.height, 'the clock’s height').toBeLessThanOrEqual(viewport.height * 0.25);

		// The last answer of the first question chosen; on to the second by keyboard; the first's
		// answer scrolled under the clock.
		const first = page.locator('fieldset').first().getByRole('radio').last();
		await first.check();
		await page.locator('fieldset').nth(1).getByRole('radio').first().focus();
		await first.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 10));
		await page.keyboard.press('Shift+Tab');
		await expect(first).toBeFocused();
		const stuck = (await clock.boundingBox())!;
		expect((await first.boundingBox())!.y, 'the answer below the clock').toBeGreaterThanOrEqual(
			stuck.y + stuck.height
		);
	}
});

test('two presses of Submit answers before the scripts arrive: the second is told identity passed, and the link goes on', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Two presses');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await startQuestions(page);
	const right = await controlAnswers(request, app.id);

	// A slow phone: the questions are there before their scripts, and the first press's answer is
	// slow to come back. The second press replaces the first in the browser, which never takes
	// the first one's answer, nor the new cookie identity passing gave it.
	const release = await holdScripts(page);
	await page.reload({ waitUntil: 'commit' });
	let secondSent = () => {};
	const second = new Promise<void>((resolve) => (secondSent = resolve));
	let firstDone = () => {};
	const first = new Promise<void>((resolve) => (firstDone = resolve));
	let firstStatus = 0;
	let presses = 0;
	await page.route('**/sign/identity?/answer', async (route) => {
		const req = route.request();
		if (++presses > 1) {
			secondSent();
			await first;
			await route.continue();
			return;
		}
		await second;
		// The first press reaches the server, as it did on the phone, but not the page.
		const headers = await req.allHeaders();
		const api = await apiRequest.newContext();
		try {
			const res = await api.post(req.url(), {
				// The browser's own headers (a no-referrer page posts with Origin: null, which the
				// server tells apart from another website's by Sec-Fetch-Site, which the browser adds
				// on the wire, so not here).
				headers: { ...headers, 'sec-fetch-site': 'same-origin' },
				data: req.postDataBuffer() ?? '',
				maxRedirects: 0
			});
			firstStatus = res.status();
		} finally {
			await api.dispose();
			firstDone();
		}
		await route.abort().catch(() => {});
	});
	for (const [name, choice] of Object.entries(right)) {
		await page.locator(`input[name="${name}"][value="${choice}"]`).check();
	}
	const submit = page.getByRole('button', { name: 'Submit answers' });
	// Both presses from the page itself: Playwright would wait for the first one's navigation.
	await submit.evaluate((b: HTMLButtonElement) => {
		b.click();
		setTimeout(() => b.click(), 300);
	});
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your identity is confirmed');
	expect(firstStatus, 'the first press passed identity').toBe(303);
	expect(presses).toBe(2);
	// A link made through the API and never emailed: back to it as the merchant got it.
	await expect(page.locator('main')).toContainText('Open your signing link again');
	release();
	await ready(page);
	const problems: string[] = [];
	await check(page, '16-identity-passed-by-the-other-press', problems);
	expect(problems, 'accessibility of the page').toEqual([]);

	// The emailed link goes on, and the questions are not asked again.
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await expect(
		page.getByRole('heading', { level: 2, name: 'Your identity is already confirmed' })
	).toBeVisible();
	await page.getByRole('button', { name: 'Continue to signing' }).click();
	await expect(page).toHaveURL(/\/sign\/sign$/);
});

test('two failures lock the questions, and a new link for the same application is still locked', async ({
	page,
	browser,
	request
}) => {
	const id = DEMO.identityFails;
	const { path } = await createLink(request, id);
	// The same link's page, opened in another tab before the lock: it offers Start.
	const before = await page.context().newPage();
	await before.goto(path);
	await expect(before.getByRole('button', { name: 'Start', exact: true })).toBeVisible();
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await expect(page.getByRole('heading', { name: 'Need help?' })).toBeVisible();

	await startQuestions(page);
	await answerQuestions(page, id, 'right'); // this application never verifies
	await expect(page.getByText(TEXT.mismatch)).toBeVisible();
	await expect(page.getByText(TEXT.oneMoreTry)).toBeVisible();
	// The page comes back by a redirect: what happened takes focus, not the top of the page.
	await expect(page.getByRole('alert').filter({ hasText: TEXT.mismatch })).toBeFocused();

	await startQuestions(page);
	await answerQuestions(page, id, 'right');
	const lockedNotice = page.getByRole('alert').filter({ hasText: TEXT.locked });
	await expect(lockedNotice).toBeVisible();
	await expect(lockedNotice).toBeFocused();
	// Above the lock, how the last try ended: a merchant sure of their answers learns why.
	await expect(lockedNotice).toContainText(TEXT.mismatch);
	await expect(lockedNotice).toContainText('contact your sales representative');
	// The rep is named once, in the notice: no second "Need help?" below it.
	await expect(page.locator('p.rep')).toHaveCount(1);
	await expect(page.getByRole('heading', { name: 'Need help?' })).toHaveCount(0);
	await expect(page.getByRole('button', { name: 'Start the questions' })).toHaveCount(0);
	await expect(page.locator('fieldset')).toHaveCount(0);

	// A reload does not unlock.
	await page.reload();
	await expect(page.getByText(TEXT.locked)).toBeVisible();
	const problems: string[] = [];
	await check(page, '16-identity-locked', problems);
	expect(problems, 'accessibility of the locked page').toEqual([]);
	// Even a forged start post gets no questions.
	const forged = await replayPost(page, '/sign/identity?/start', {});
	expect(forged.status()).toBeLessThan(500);
	expect(await forged.text()).not.toContain('<fieldset');

	// Start pressed on the page loaded before the lock opens nothing; the page says until when.
	await before.getByRole('button', { name: 'Start', exact: true }).click();
	await expect(before.getByRole('alert').filter({ hasText: 'locked for now' })).toContainText(
		/locked on every device until \w+, \w+ \d+, \d{4} at \d+:\d\d [AP]M \w/
	);
	await expect(before).toHaveURL(new RegExp(`${path}$`));
	await expect(before.getByRole('button', { name: 'Start', exact: true })).toHaveCount(0);
	await before.close();

	// A new link, on another device, for the same application.
	const other = await browser.newContext();
	try {
		const p2 = await other.newPage();
		const second = await createLink(request, id, { email: 'locked@identity.example' });
		// Its email says so too, with when they unlock, rather than only that it is ready.
		await p2.goto('/dev/mailbox');
		const mail = p2.locator('article').filter({ hasText: 'To locked@identity.example' });
		await expect(mail.locator('pre')).toContainText(
			/after too many unsuccessful tries the credit bureau’s identity questions for this application are locked until \w+, \w+ \d+, \d{4} at \d+:\d\d [AP]M/
		);
		// Its page says so at once, with the time, and offers no Start that would stop at the lock.
		await p2.goto(second.path);
		const linkNotice = p2.getByRole('alert').filter({ hasText: 'locked for now' });
		await expect(linkNotice).toContainText(
			/locked on every device until \w+, \w+ \d+, \d{4} at \d+:\d\d [AP]M \w/
		);
		await expect(linkNotice).toContainText('Open this link again after then');
		await expect(p2.getByRole('button', { name: 'Start', exact: true })).toHaveCount(0);
		await expect(p2.getByText('It takes about ten minutes')).toHaveCount(0);
		// Not "ready" above a lock.
		await expect(p2.getByText(/This link is for your application for/)).toBeVisible();
		await expect(p2.getByText(/is ready/)).toHaveCount(0);
		// Declining stays open to them.
		await expect(p2.getByText('I don’t want to sign')).toBeVisible();
		// A Start posted anyway, without JavaScript, opens no session and gets the same page.
		const started = await replayPost(p2, `${second.path}?/start`, {});
		expect(started.status()).toBe(409);
		expect(await started.text()).toContain('locked for now');
		expect((await p2.request.get('/sign/terms', { maxRedirects: 0 })).status()).toBe(401);
	} finally {
		await other.close();
	}
});

test('credit bureau down (50006): told plainly, no try used', async ({ page, request }) => {
	const { path } = await createLink(request, DEMO.bureauDown);
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await expect(page.getByText(/You have 2 of 2\s+tries left/)).toBeVisible();

	await page.getByRole('button', { name: 'Start the questions' }).click();
	await expect(page.getByText(TEXT.bureauDown)).toBeVisible();
	await expect(page.getByRole('alert').filter({ hasText: TEXT.bureauDown })).toBeFocused();
	await expect(page.locator('fieldset')).toHaveCount(0);
	await expect(page.getByText(/You have 2 of 2\s+tries left/)).toBeVisible();

	// Still nothing used after trying again and reloading.
	await page.getByRole('button', { name: 'Start the questions' }).click();
	await expect(page.getByText(TEXT.bureauDown)).toBeVisible();
	await page.reload();
	await expect(page.getByText(/You have 2 of 2\s+tries left/)).toBeVisible();
	await expect(page.getByText(TEXT.locked)).toHaveCount(0);
});

test('without JavaScript a refused Start answers with a page to GET: Back and reload post nothing', async ({
	browser,
	request
}) => {
	const { path } = await createLink(request, DEMO.bureauDown);
	const context = await noScriptContext(browser);
	try {
		const page = await context.newPage();
		await openLinkAndStart(page, path);
		await agreeToTerms(page);
		const posts: string[] = [];
		page.on('request', (r) => {
			if (r.method() === 'POST') posts.push(r.url());
		});
		await page.getByRole('button', { name: 'Start the questions' }).click();
		await expect(page.getByRole('alert')).toContainText(TEXT.bureauDown);
		expect(new URL(page.url()).search).toBe('?refused=unavailable');
		expect(posts).toHaveLength(1);
		// Away (to the agreement) and Back: the refusal's page again, from a GET.
		await page.goto('/sign/review');
		await page.goBack();
		await expect(page.getByRole('alert')).toContainText(TEXT.bureauDown);
		await page.reload();
		await expect(page.getByText(/You have 2 of 2\s+tries left/)).toBeVisible();
		expect(posts).toHaveLength(1);
	} finally {
		await context.close();
	}
});

test('answers sent after the time limit count as a failed try (no script: the server decides)', async ({
	browser,
	request
}) => {
	await setTimeLimit(request, 1);
	const app = await newApplication(request, 'Late');
	const { path } = await createLink(request, app.id);
	const context = await noScriptContext(browser);
	try {
		const page = await context.newPage();
		await openLinkAndStart(page, path);
		await agreeToTerms(page);
		await expect(page.getByText(/You have 2 of 2\s+tries left/)).toBeVisible();

		await startQuestions(page);
		// The limit plus the portal's grace for slow networks (3 s) has passed.
		await page.waitForTimeout(5_000);
		await answerQuestions(page, app.id, 'right');
		await expect(page).toHaveURL(/\/sign\/identity$/);
		await expect(page.getByText(/time ran out/i)).toBeVisible();
		await expect(page.getByText(TEXT.oneMoreTry)).toBeVisible();
		await expect(page.getByText(/You have 1 of 2\s+tries left/)).toBeVisible();
		await expect(page.getByRole('heading', { name: 'Sign your application' })).toHaveCount(0);
	} finally {
		await context.close();
	}
});

test('when the time runs out, the page ends the try by itself', async ({ page, request }) => {
	await setTimeLimit(request, 1);
	const app = await newApplication(request, 'Time up');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await startQuestions(page);
	// Down at the last question, as a merchant answering them is.
	await page.getByRole('button', { name: 'Submit answers' }).scrollIntoViewIfNeeded();
	expect(await page.evaluate(() => scrollY)).toBeGreaterThan(0);
	await expect(page.getByText(/Time is up: this try has ended/)).toBeVisible();
	// Answers the page says have ended are not sent.
	await expect(page.getByRole('button', { name: 'Submit answers' })).toBeDisabled();
	// No submit: the questions give way to the next step on their own, whose top says why, where
	// the merchant is taken.
	await expect(page.locator('fieldset')).toHaveCount(0, { timeout: 15_000 });
	await expect(page.getByText(/time ran out/i)).toBeInViewport();
	await expect(page.getByText(/You have 1 of 2\s+tries left/)).toBeVisible();
	// Focus with it: the answer that had it has left the page, and a reader reads the notice.
	await expect(page.getByRole('alert').filter({ hasText: /time ran out/i })).toBeFocused();
	await page.keyboard.press('Tab');
	await expect(page.getByRole('button', { name: 'Start the questions' })).toBeFocused();
});

test('a link made through the operator API ends the questions open on the one it replaces, as a try spent', async ({
	page,
	browser,
	request
}) => {
	const app = await newApplication(request, 'Replaced mid-questions');
	const first = await createLink(request, app.id);
	await openLinkAndStart(page, first.path);
	await agreeToTerms(page);
	await startQuestions(page);

	const other = await browser.newContext();
	try {
		const p2 = await other.newPage();
		const second = await createLink(request, app.id);
		await openLinkAndStart(p2, second.path);
		await agreeToTerms(p2);
		await expect(p2.getByText(/You have 1 of 2\s+tries left/)).toBeVisible();
		await startQuestions(p2);
	} finally {
		await other.close();
	}
});

test('a new link after identity passed elsewhere does not let a new session skip the questions (or start)', async ({
	page,
	browser,
	request
}) => {
	const app = await newApplication(request, 'Second device');
	// Device A passes identity, then stops before signing.
	const first = await createLink(request, app.id);
	await openLinkAndStart(page, first.path);
	await agreeToTerms(page);
	await passIdentity(page, app.id);

	// A new link (e.g. a forwarded or re-sent email) opened on device B. It went to no address
	// (or another one), so it cannot carry the pass over: the merchant is sent to the rep before
	// Start, and a replayed Start opens no session either.
	const other = await browser.newContext();
	try {
		const p2 = await other.newPage();
		const second = await createLink(request, app.id);
		await p2.goto(second.path);
		await expect(p2.getByRole('alert')).toContainText('Your identity was already confirmed');
		// The first link went to no address: not "a link to that address", which no rep can send.
		await expect(p2.getByRole('alert')).toContainText(
			'using an earlier link, which wasn’t sent by email. For your security this link can’t continue: please contact your sales representative, who can help you finish on that link if it still works, or in person.'
		);
		await expect(p2.getByRole('button', { name: 'Start' })).toHaveCount(0);
		const start = await replayPost(p2, `${second.path}?/start`, {});
		expect(start.status()).toBe(409);
		expect(start.headers()['set-cookie'] ?? '').not.toContain('signing_session');
		const r = await p2.goto('/sign/sign');
		expect(r?.status()).toBe(401);
		await expect(p2.getByRole('button', { name: 'Accept and sign' })).toHaveCount(0);
	} finally {
		await other.close();
	}
});

test('a second try left with its questions on the screen locks at once for the rep, not when the merchant comes back', async ({
	browser,
	request
}) => {
	await setTimeLimit(request, 1);
	const app = await newApplication(request, 'Left the questions');
	const { path } = await createLink(request, app.id);
	// Without script nothing on the merchant's page ends the try when its time is up.
	const context = await noScriptContext(browser);
	const rep = await repPage(browser, REPS.sam);
	try {
		const page = await context.newPage();
		await openLinkAndStart(page, path);
		await agreeToTerms(page);
		await startQuestions(page);
		await answerQuestions(page, app.id, 'wrong');
		await expect(page.getByText(TEXT.oneMoreTry)).toBeVisible();
		await startQuestions(page);
		// The merchant leaves the questions unanswered: the limit and the grace (3 s) pass.
		await page.waitForTimeout(5_000);

		await rep.goto('/rep');
		await expect(consoleEntry(rep, app.id)).toContainText('Identity locked');
		await rep.goto(appPath(app.id));
		await expect(rep.getByText('Identity locked', { exact: true })).toBeVisible();
		// No hand-over that would stop at the same lock.
		await expect(rep.getByRole('button', { name: 'Hand to merchant' })).toHaveCount(0);
		await expect(rep.getByRole('region', { name: 'In person' })).toContainText(/Not before /);
		// And the rep's note of the lock is in the outbox already: the worker closed the try.
		await expect(rep.getByRole('region', { name: 'Email' })).toContainText(
			`Identity questions locked: ${app.business}`
		);

		// The merchant, back, meets the lock the rep saw, and reads that the time ran out.
		await page.reload();
		await expect(page.getByText(TEXT.locked)).toBeVisible();
		await expect(page.getByRole('alert').filter({ hasText: TEXT.locked })).toContainText(
			'The time ran out before your answers were submitted'
		);
	} finally {
		await context.close();
		await rep.context().close();
	}
});

/**
 * A server of its own whose identity limit is `limit` requests an hour (the shared one's is out of
 * reach), a link of its own, and, without script (every press reaches the server, each answered
 * with its own status), its questions open: what `walk` then does there.
 */
async function questionsOnOwnServer(
	browser: Browser,
	name: string,
	limit: number,
	walk: (page: Page, origin: string) => Promise<void>
) {
	const server = await startSecondServer(name, { E2E_RATE_LIMIT_IDENTITY: String(limit) });
	try {
		const api = await apiRequest.newContext({ baseURL: server.origin });
		const { path } = await createLink(api, DEMO.ordinary);
		await api.dispose();
		const context = await noScriptContext(browser, { baseURL: server.origin });
		const page = await context.newPage();
		await openLinkAndStart(page, path);
		await agreeToTerms(page);
		await startQuestions(page);
		await walk(page, server.origin);
		await context.close();
	} finally {
		await server.stop();
	}
}

test('answers sent unfinished do not use up the identity limit: the whole ones after them are judged', async ({
	browser
}) => {
	test.setTimeout(120_000);
	// Three requests an hour: Start, then the whole answers; the unfinished ones before count none.
	await questionsOnOwnServer(browser, 'identity-limit', 3, async (page) => {
		const submit = async () => {
			const answered = page.waitForResponse(
				(r) => r.request().method() === 'POST' && r.url().includes('?/answer')
			);
			await page.getByRole('button', { name: 'Submit answers' }).click();
			return (await answered).status();
		};
		for (let i = 0; i < 4; i++) {
			expect(await submit(), `unfinished post ${i + 1}`).toBe(400);
			await expect(page.getByRole('alert').first()).toContainText(
				'Answer every question, then submit.'
			);
		}
		for (const fs of await page.locator('fieldset').all()) {
			await fs.locator('input[type=radio]').first().check();
		}
		// Judged (a pass or a miss, whichever the first choices are), not refused by the limit.
		const status = await submit();
		expect([200, 303]).toContain(status);
		await expect(page.getByText('Too many requests')).toHaveCount(0);
	});
});

test('a Start the identity limit refuses says how long to wait, and that no try was used', async ({
	browser
}) => {
	test.setTimeout(120_000);
	// Two requests an hour: Start, then answers sent whole; the next Start is refused.
	await questionsOnOwnServer(browser, 'identity-limit-start', 2, async (page, origin) => {
		// A wrong choice for every question, from this server's own sandbox.
		await answerQuestions(page, DEMO.ordinary, 'wrong', origin);
		await expect(page).toHaveURL(/\/sign\/identity$/);
		await page.getByRole('button', { name: 'Start the questions' }).click();
		await expect(page).toHaveURL(/\/sign\/identity\?refused=limited$/);
		const said = page.getByRole('alert').filter({ hasText: 'Too many requests' });
		await expect(said).toHaveText(
			/^Too many requests for this application’s identity questions\. No try was used\. Try again in (1 minute|\d+ minutes)\.$/
		);
		// Said again on a reload while the hour lasts, and Start is still there for after it.
		await page.reload();
		await expect(said).toBeVisible();
		await expect(page.getByRole('button', { name: 'Start the questions' })).toBeVisible();
	});
});
