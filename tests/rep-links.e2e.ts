import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
	TEXT,
	agreeToTerms,
	createLink,
	newApplication,
	openLinkAndStart,
	ready,
	resetSandbox,
	startQuestions
} from './support/flow';
import { E2E } from './support/env';
import {
	REPS,
	SEND_LINK,
	SENT_NOTICE,
	TABLET,
	appPath,
	leftInBackground,
	mailTo,
	repPage
} from './support/reps';

test.use({ viewport: TABLET });

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

const SAM = 'Your sales representative: Sam Ortiz, sam.ortiz@office1207.example, (217) 555-0100';

async function send(rep: Page, email: string) {
	await ready(rep);
	await rep.getByLabel('Owner’s email').fill(email);
	// The notice of an earlier send on this page may still be up: this send's answer comes first.
	const answered = rep.waitForResponse(
		(r) => r.request().method() === 'POST' && r.url().includes('?/send')
	);
	await rep.getByRole('button', { name: SEND_LINK }).click();
	expect((await answered).status()).toBeLessThan(400);
	await expect(rep.getByRole('status').filter({ hasText: SENT_NOTICE })).toBeVisible();
}

test('send a link in the rep’s name; the merchant opens it from the mail and sees the rep', async ({
	browser,
	page,
	request
}) => {
	const app = await newApplication(request, 'Rep sends');
	const rep = await repPage(browser, REPS.sam);
	await rep.goto(appPath(app.id));
	await expect(rep.getByText('There is no usable link.')).toBeVisible();
	await expect(rep.getByLabel('Owner’s email')).toHaveValue(app.email);

	// The page refreshes itself (every 2 s here): an address being typed stays through it. Two
	// refreshes: the second one's answer comes long after the first one was on the page.
	await ready(rep);
	await rep.getByLabel('Owner’s email').fill('still.typing@testsh');
	for (let i = 0; i < 2; i++) {
		await rep.waitForResponse((r) => r.url().includes('/__data.json') && r.ok());
	}
	await expect(rep.getByLabel('Owner’s email')).toHaveValue('still.typing@testsh');

	// A bad address is refused beside the field, and what was typed stays.
	await rep.getByLabel('Owner’s email').fill('morgan at testshop');
	await rep.locator('form[action="?/send"]').evaluate((f) => f.setAttribute('novalidate', ''));
	await rep.getByRole('button', { name: 'Send link' }).click();
	await expect(rep.getByText('Enter an email address such as dana@example.com.')).toBeVisible();
	await expect(rep.getByLabel('Owner’s email')).toHaveValue('morgan at testshop');
	await expect(rep.getByLabel('Owner’s email')).toHaveAttribute('aria-invalid', 'true');
	// A pasted address too long for one is kept whole and called too long (the field cut it at
	// 254 characters, losing its @ and domain, and it was refused as no address at all).
	const long = `${'m'.repeat(300)}@testshop.example`;
	await rep.getByLabel('Owner’s email').fill(long);
	await rep.getByRole('button', { name: 'Send link' }).click();
	await expect(rep.getByText('That is too long for an email address')).toBeVisible();
	await expect(rep.getByLabel('Owner’s email')).toHaveValue(long);

	const address = 'morgan.owner@testshop.example';
	await send(rep, address);
	// Queued or already sent by the outbox's worker: the page says which, never "emailed" early.
	await expect(
		rep.getByText(
			/A link is out(, emailed to| for) morgan\.owner@testshop\.example(\.|; its email is waiting to go out\.)/
		)
	).toBeVisible();
	await expect(rep.locator('.timeline').getByText(`For ${address}`)).toBeVisible();
	await expect(rep.locator('.timeline').getByText('Sam Ortiz (rep 31').first()).toBeVisible();

	// The notice answered the send: it leaves the address, and a reload does not show it again.
	await expect(rep).toHaveURL(new RegExp(`${appPath(app.id)}$`));
	const mail = await mailTo(page, address, app.business);
	await rep.reload();
	await expect(rep.getByText(`A link is out, emailed to ${address}.`)).toBeVisible();
	await expect(rep.getByText(SENT_NOTICE)).toHaveCount(0);
	expect(mail.text).toContain(app.business);
	for (const part of ['Sam Ortiz', REPS.sam.email, REPS.sam.phone])
		expect(mail.text).toContain(part);
	await page.goto(mail.path);
	await expect(page.getByRole('heading', { level: 1, name: TEXT.linkHeading })).toBeVisible();
	await expect(page.getByText(SAM)).toBeVisible();
	// On the tablet as on a phone (rep-deadend), the address and the number each have a line.
	const [email, phone] = await Promise.all(
		[REPS.sam.email, REPS.sam.phone].map((name) => page.getByRole('link', { name }).boundingBox())
	);
	expect(phone!.x).toBe(email!.x);
	expect(phone!.y).toBeGreaterThanOrEqual(email!.y + email!.height);
	await openLinkAndStart(page, mail.path);
	await expect(page.getByText(SAM)).toBeVisible();
	await agreeToTerms(page);
	await expect(page.getByText(SAM)).toBeVisible();

	await rep.goto(`/rep?q=${encodeURIComponent(app.business)}`);
	await expect(rep.locator(`li[data-application="${app.id}"] .badge`)).toHaveText(
		'In progress: identity step'
	);
});

test('a colleague’s link names the colleague, in the email and on every page it leads to', async ({
	browser,
	page,
	request
}) => {
	// The application is Sam's (RepNo 31); Riley, of the same office, sends its link.
	const app = await newApplication(request, 'Colleague sends');
	const rep = await repPage(browser, REPS.riley);
	await rep.goto(appPath(app.id));
	await send(rep, app.email);
	const mail = await mailTo(page, app.email, app.business);
	expect(mail.text).toContain(REPS.riley.name);
	expect(mail.text).not.toContain('Sam Ortiz');

	const riley = `Your sales representative: ${REPS.riley.name}, ${REPS.riley.email}, ${REPS.riley.phone}`;
	await page.goto(mail.path);
	await expect(page.getByText(riley)).toBeVisible();
	// A longer name and address than Sam's: on the tablet too, no line ends in a comma.
	expect(await page.locator('.rep').innerText()).not.toContain(',');
	await openLinkAndStart(page, mail.path);
	await expect(page.getByText(riley)).toBeVisible();
	await agreeToTerms(page);
	await expect(page.getByText(riley)).toBeVisible();

	// Once it is replaced, its dead page names the colleague too.
	await rep.goto(appPath(app.id));
	await rep.getByText('Revoke the link', { exact: true }).click();
	await rep.getByRole('button', { name: 'Yes, revoke the link' }).click();
	await expect(rep.getByText(/^The link was revoked:/)).toBeVisible();
	expect((await page.goto(mail.path))?.status()).toBe(410);
	await expect(page.getByText(riley)).toBeVisible();
});

test('resend replaces the old link; revoke ends it; the dead links name the rep', async ({
	browser,
	page,
	request
}) => {
	const app = await newApplication(request, 'Rep resends');
	const rep = await repPage(browser, REPS.sam);
	await rep.goto(appPath(app.id));
	await send(rep, 'first@testshop.example');
	const first = await mailTo(page, 'first@testshop.example', app.business);
	await openLinkAndStart(page, first.path);

	await rep.goto(appPath(app.id));
	await expect(rep.getByRole('heading', { name: 'Resend the link' })).toBeVisible();
	// The merchant is on it now: the page says what a new link would end, before it is sent.
	await expect(rep.locator('#link-in-use')).toContainText(
		'The merchant is signing on the link that is out, right now.'
	);
	await send(rep, 'second@testshop.example');
	const second = await mailTo(page, 'second@testshop.example', app.business);
	expect(second.path).not.toBe(first.path);
	// The second email says the earlier link no longer works; the first had none to replace.
	const replaces =
		'If you received a signing link for this application before, it no longer works: please use this one.';
	expect(second.text.replace(/\s+/g, ' ')).toContain(replaces);
	expect(first.text.replace(/\s+/g, ' ')).not.toContain('no longer works');

	// The old link is dead, and the session it opened ended with it.
	const old = await page.goto(first.path);
	expect(old?.status()).toBe(410);
	await expect(page.getByText('This link has been replaced by a newer one')).toBeVisible();
	await expect(page.getByText(SAM)).toBeVisible();
	// Its page says why, and whom to ask.
	// As Start left its address (`?started`): the session's end is said, not cookies.
	const gone = await page.goto('/sign/terms?started');
	expect(gone?.status()).toBe(401);
	await expect(
		page.getByText(/sent you a newer signing link, which ended this session/)
	).toBeVisible();
	await expect(page.getByText(SAM)).toBeVisible();

	// The first email went out (the merchant opened it): the list says its link no longer opens.
	await rep.goto(appPath(app.id));
	const firstMail = rep
		.getByRole('region', { name: 'Email' })
		.getByRole('listitem')
		.filter({ hasText: 'Kept in the development mailbox (not sent), to first@testshop.example' });
	await expect(firstMail).toContainText('Its link no longer opens');
	await expect(
		rep
			.getByRole('region', { name: 'Email' })
			.getByRole('listitem')
			.filter({ hasText: 'to second@testshop.example' })
	).not.toContainText('Its link no longer opens');
	await openLinkAndStart(page, second.path);
	await rep.getByText('Revoke the link', { exact: true }).click();
	await rep.getByRole('button', { name: 'Yes, revoke the link' }).click();
	// The notice, not the mail list: the first link's email may have been cancelled as replaced,
	// depending on whether the outbox ran before the resend ("the link was revoked or replaced…").
	await expect(rep.getByText(/^The link was revoked:/)).toBeVisible();
	await expect(rep.getByText('There is no usable link.')).toBeVisible();
	await expect(rep.getByText('Revoked by the rep')).toBeVisible();
	// Back to the send's address (as a browser without script keeps it): its notice no longer
	// fits, so it is not shown.
	await rep.goto(`${appPath(app.id)}?done=sent`);
	await expect(rep.getByText('There is no usable link.')).toBeVisible();
	await expect(rep.getByText(SENT_NOTICE)).toHaveCount(0);
	// The session the second link opened ends with it, and says the rep withdrew it.
	expect((await page.goto('/sign/terms'))?.status()).toBe(401);
	await expect(page.getByText(/withdrew the link this session was opened with/)).toBeVisible();
	await expect(page.getByText(SAM)).toBeVisible();
	const revoked = await page.goto(second.path);
	expect(revoked?.status()).toBe(410);
	// Revoked, not replaced: no newer email to look for.
	await expect(
		page.getByText('Your sales representative has withdrawn this link, so it no longer opens.')
	).toBeVisible();
	await expect(page.getByText(/replaced by a newer one/)).toHaveCount(0);
	await expect(page.getByRole('button', { name: 'Start' })).toHaveCount(0);
	await expect(page.getByText(SAM)).toBeVisible();

	// A link sent after the revoke replaces none, yet the emails before it hold links that no
	// longer work: it says so as a resend does.
	await rep.goto(appPath(app.id));
	await send(rep, 'third@testshop.example');
	const third = await mailTo(page, 'third@testshop.example', app.business);
	expect(third.text.replace(/\s+/g, ' ')).toContain(replaces);
});

test('copy link: a new link shown once, with JavaScript off too', async ({ browser, request }) => {
	const app = await newApplication(request, 'Rep copies');
	const rep = await repPage(browser, REPS.sam, { script: false });
	await rep.goto(appPath(app.id));
	await rep.getByRole('button', { name: 'Make a link to copy' }).click();
	const field = rep.getByLabel(/^The new link \(works until .* C[SD]T\)$/);
	await expect(field).toBeVisible();
	const url = await field.inputValue();
	expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
	// Without script there is no clipboard button: the field is there to select.
	await expect(rep.getByRole('button', { name: 'Copy to clipboard' })).toBeHidden();
	// The form's answer was a redirect: a reload asks again for the page, not for a new link
	// (which would end the one just copied), and the link is not shown twice.
	expect(new URL(rep.url()).search).toBe('?done=copied');
	await rep.reload();
	await expect(rep.getByText(/^The link you made is shown only once/)).toContainText(
		'It still works.'
	);
	expect(await rep.content()).not.toContain(url);

	// Shown once: the page afterwards no longer holds it.
	await rep.goto(appPath(app.id));
	await expect(rep.getByText('made to copy, not emailed')).toBeVisible();
	await expect(rep.getByText(/^The link you made is shown only once/)).toHaveCount(0);
	expect(await rep.content()).not.toContain(url);
	// A link made to copy was never emailed: there is nothing to resend.
	await expect(rep.getByRole('heading', { name: 'Email a new link' })).toBeVisible();
	await expect(rep.getByRole('button', { name: 'Email a new link' })).toBeVisible();
	await expect(rep.getByText(/resend/i)).toHaveCount(0);

	const merchant = await browser.newPage();
	await openLinkAndStart(merchant, new URL(url).pathname);
	await expect(merchant.getByText(SAM)).toBeVisible();
});

test('the copy note after a revoke, without JavaScript, no longer says the link works', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Rep copies, revokes');
	const rep = await repPage(browser, REPS.sam, { script: false });
	await rep.goto(appPath(app.id));
	await rep.getByRole('button', { name: 'Make a link to copy' }).click();
	await expect(rep.getByLabel(/^The new link/)).toBeVisible();
	await rep.getByText('Revoke the link', { exact: true }).click();
	await rep.getByRole('button', { name: 'Yes, revoke the link' }).click();
	await expect(rep.getByText('There is no usable link.')).toBeVisible();
	// Back to the copy's address, as the browser's Back does.
	await rep.goto(`${appPath(app.id)}?done=copied`);
	const once = rep.getByText(/^The link you made is shown only once/);
	await expect(once).toContainText('It no longer works');
	await expect(once).not.toContainText('still works');
	await rep.context().close();
});

test('without JavaScript, a refused send says so at the top of the page, with a way down to why', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Rep refused without script');
	const rep = await repPage(browser, REPS.sam, {
		script: false,
		viewport: { width: 390, height: 844 }
	});
	await rep.goto(appPath(app.id));
	// An address the browser takes and the portal does not (no domain after the @'s host).
	await rep.getByLabel('Owner’s email').fill('dana@shop');
	await rep.getByRole('button', { name: 'Send link' }).click();
	const top = rep.getByText('Nothing was done: the message below says why.');
	await expect(top).toBeInViewport();
	const why = rep.getByText('Enter an email address such as dana@example.com.');
	await expect(why).not.toBeInViewport();
	await top.getByRole('link', { name: 'Go to it' }).click();
	await expect(why).toBeInViewport();
	await rep.context().close();
});

/** The rep's session ends on the server while their page stays open (signed out elsewhere). */
async function endSessionElsewhere(rep: Page, request: APIRequestContext) {
	const session = (await rep.context().cookies()).find((c) => c.name === 'rep_session');
	const out = await request.post('/rep/logout', {
		form: {},
		headers: { cookie: `rep_session=${session!.value}`, origin: E2E.origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(out.status()).toBe(303);
}

async function signInAgain(rep: Page) {
	await expect(rep).toHaveURL(/\/rep\/login\?/);
	await expect(rep.getByRole('alert')).toContainText(
		'what you last pressed was not done and nothing changed'
	);
	await ready(rep);
	await rep.getByLabel('Email').fill(REPS.sam.email);
	await rep.getByLabel('Password').fill(REPS.sam.password());
	await rep.getByRole('button', { name: 'Sign in' }).click();
}

test('a send pressed after the session ended sends nothing, and the address typed is there after signing in', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Rep session ended');
	const rep = await repPage(browser, REPS.sam);
	await rep.goto(appPath(app.id));
	await ready(rep);
	const address = 'typed.before@testshop.example';
	await rep.getByLabel('Owner’s email').fill(address);
	await endSessionElsewhere(rep, request);
	await rep.getByRole('button', { name: 'Send link' }).click();
	await signInAgain(rep);

	await expect(rep).toHaveURL(new RegExp(`${appPath(app.id)}$`));
	await expect(rep.locator('#undone')).toContainText(
		'Your session had ended, so no link was sent. The address you typed is filled in again'
	);
	await expect(rep.getByText('There is no usable link.')).toBeVisible();
	await expect(rep.getByLabel('Owner’s email')).toHaveValue(address);
	// It stays through the page's refreshes, as an address being typed does.
	for (let i = 0; i < 2; i++) {
		await rep.waitForResponse((r) => r.url().includes('/__data.json') && r.ok());
	}
	await expect(rep.getByLabel('Owner’s email')).toHaveValue(address);
	await send(rep, address);
	await expect(rep.locator('#undone')).toHaveCount(0);
	await expect(rep.locator('.timeline').getByText(`For ${address}`)).toBeVisible();
	// Given back once: a reload offers the owner's address again.
	await rep.reload();
	await expect(rep.getByLabel('Owner’s email')).toHaveValue(app.email);
	// Make a link to copy, pressed once the session has ended again: not done, and said so.
	await ready(rep);
	await endSessionElsewhere(rep, request);
	await rep.getByRole('button', { name: 'Make a link to copy' }).click();
	await signInAgain(rep);
	await expect(rep).toHaveURL(new RegExp(`${appPath(app.id)}$`));
	await expect(rep.locator('#undone')).toContainText(
		'Your session had ended, so no link was made to copy.'
	);
	await expect(rep.getByText(`A link is out, emailed to ${address}.`)).toBeVisible();
	await rep.context().close();
});

test('without JavaScript, a hand-over pressed after the session ended keeps the photo ID noted', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Rep session ended in person');
	const rep = await repPage(browser, REPS.sam, { script: false });
	await rep.goto(appPath(app.id));
	await rep.getByLabel('I have checked the signer’s photo ID').check();
	await rep.getByLabel('ID type, such as driver’s license (optional)').fill('Passport');
	await rep.getByLabel('Last four characters of the ID (optional)').fill('K7Q2');
	await endSessionElsewhere(rep, request);
	await rep.getByRole('button', { name: 'Hand to merchant' }).click();
	await signInAgain(rep);

	await expect(rep).toHaveURL(new RegExp(`${appPath(app.id)}$`));
	await expect(rep.locator('#undone')).toContainText(
		'Your session had ended, so nothing was handed over.'
	);
	await expect(rep.getByLabel('ID type, such as driver’s license (optional)')).toHaveValue(
		'Passport'
	);
	await expect(rep.getByLabel('Last four characters of the ID (optional)')).toHaveValue('K7Q2');
	// The attestation is the rep's to make again, at the hand-over itself.
	await expect(rep.getByLabel('I have checked the signer’s photo ID')).not.toBeChecked();
	await rep.context().close();
});

test('copy link with JavaScript: the link stays on the page through its refreshes', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Rep copies with script');
	const rep = await repPage(browser, REPS.sam);
	await rep.goto(appPath(app.id));
	await rep.getByRole('button', { name: 'Make a link to copy' }).click();
	const field = rep.getByLabel(/^The new link \(works until /);
	await expect(field).toBeVisible();
	await expect(field).toBeInViewport();
	await expect(rep.getByRole('button', { name: 'Copy to clipboard' })).toBeVisible();
	const url = await field.inputValue();
	// The notice's parameter stays in the address (a reload says why the link is gone); the page
	// refreshes itself (every 2 s here), and the link, which the server gives out once, stays.
	await expect(rep).toHaveURL(new RegExp(`${appPath(app.id)}\\?done=copied(#copied)?$`));
	await rep.waitForResponse((r) => r.url().includes('__data.json'));
	await rep.waitForResponse((r) => r.url().includes('__data.json'));
	await expect(field).toHaveValue(url);
	await expect(rep.getByText('made to copy, not emailed')).toBeVisible();
	// Pressed again, it ends the link just shown: the button says so.
	await expect(
		rep.getByRole('button', { name: 'Make another link to copy' })
	).toHaveAccessibleDescription('The link above then stops working.');
	await rep.reload();
	await expect(
		rep.getByRole('button', { name: 'Make a link to copy' })
	).toHaveAccessibleDescription('The current link then stops working.');
	await expect(rep.getByLabel(/^The new link/)).toHaveCount(0);
	// Reloaded, the page says why the link is not there, as it does without script.
	await expect(rep.getByText(/^The link you made is shown only once/)).toContainText(
		'It still works.'
	);
	expect(await rep.content()).not.toContain(url);
	await rep.context().close();
});

test('a new link ends the old one’s open questions at once, as a try spent, and the new link can start', async ({
	browser,
	page,
	request
}) => {
	const app = await newApplication(request, 'Rep replaces mid-questions');
	const rep = await repPage(browser, REPS.sam);
	await rep.goto(appPath(app.id));
	await rep.getByRole('button', { name: 'Make a link to copy' }).click();
	const first = await rep.getByLabel(/^The new link/).inputValue();
	await openLinkAndStart(page, new URL(first).pathname);
	await agreeToTerms(page);
	await startQuestions(page);

	// The merchant asks for the link to go to another address while the questions are open.
	await rep.goto(appPath(app.id));
	await rep.getByRole('button', { name: 'Make a link to copy' }).click();
	const second = await rep.getByLabel(/^The new link/).inputValue();
	await rep.goto(appPath(app.id));
	await expect(
		rep.locator('ol.timeline li').filter({
			hasText: 'The questions were still open when the link was replaced; they count as a try'
		})
	).toContainText('Sam Ortiz');

	const other = await browser.newContext({ viewport: TABLET });
	try {
		const merchant = await other.newPage();
		await openLinkAndStart(merchant, new URL(second).pathname);
		await agreeToTerms(merchant);
		// Not "open in another window … finish them there": that window's session is over.
		await expect(merchant.getByText(/You have 1 of 2\s+tries left/)).toBeVisible();
		await startQuestions(merchant);
	} finally {
		await other.close();
	}
	// The old window's answers go nowhere: its session ended with its link. The new link is in
	// no email, so the merchant is not sent to their mail, whose newest link is the dead one.
	await page.reload();
	await expect(page.locator('fieldset')).toHaveCount(0);
	await expect(page.getByText(/made a newer signing link, which ended this session/)).toBeVisible();
	await expect(page.getByText(/most recent email/)).toHaveCount(0);
	await page.goto(new URL(first).pathname);
	await expect(page.getByText(/replaced by a newer one, which wasn’t emailed/)).toBeVisible();
	await expect(page.getByText(SAM)).toBeVisible();
});

test('a link the operator API made without an address is named as such, not as one to copy', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Operator made');
	await createLink(request, app.id);
	const rep = await repPage(browser, REPS.sam);
	await rep.goto(appPath(app.id));
	await expect(
		rep.getByText(/^A link is out \(made through the operator API, not emailed\)/)
	).toBeVisible();
	await expect(
		rep.getByText(/^A link made through the operator API, not emailed; valid until/)
	).toBeVisible();
	await expect(rep.getByText('made to copy')).toHaveCount(0);
	await expect(rep.getByText(/To copy and hand over/)).toHaveCount(0);
});

test('a tab left open does not replace a link made since in another: it says so and shows that link', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Rep two tabs');
	const stale = await repPage(browser, REPS.sam);
	await stale.goto(appPath(app.id));
	await ready(stale);
	await expect(stale.getByText('There is no usable link.')).toBeVisible();
	await leftInBackground(stale);

	// Another tab (here another session of the same rep) sends a link.
	const other = await repPage(browser, REPS.sam);
	await other.goto(appPath(app.id));
	await send(other, 'first.address@testshop.example');

	// The stale tab still shows no link, and its Send would silently replace the one just sent.
	await stale.getByLabel('Owner’s email').fill('second.address@testshop.example');
	await stale.getByRole('button', { name: 'Send link' }).click();
	await expect(stale.locator('#send-moved')).toHaveText(
		/link changed after this page was shown .* so nothing was sent\. Check the link the page now shows: sending again replaces it, so the merchant can no longer use it, and its email, if still waiting, is not sent\./
	);
	// No fault of the address: the field is not marked.
	await expect(stale.getByLabel('Owner’s email')).not.toHaveAttribute('aria-invalid', 'true');
	// The page is read again at once, though it does not refresh itself: it shows the link the
	// other tab sent.
	await expect(stale.getByText(/A link is out(, emailed to| for) first\.address@/)).toBeVisible();
	await expect(stale.getByLabel('Owner’s email')).toHaveValue('second.address@testshop.example');
	await expect(stale.locator('.timeline').getByText('For second.address@')).toHaveCount(0);

	// Pressed again, knowing, it replaces that link.
	await send(stale, 'second.address@testshop.example');
	await expect(stale.getByText(/A link is out(, emailed to| for) second\.address@/)).toBeVisible();
});

test('without JavaScript, a tab left open makes no link to copy over one sent since', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Rep two tabs without script');
	const stale = await repPage(browser, REPS.sam, { script: false });
	await stale.goto(appPath(app.id));
	await expect(stale.getByText('There is no usable link.')).toBeVisible();
	const other = await repPage(browser, REPS.sam);
	await other.goto(appPath(app.id));
	await send(other, 'first.address@testshop.example');

	await stale.getByRole('button', { name: 'Make a link to copy' }).click();
	await expect(stale.getByRole('alert').filter({ hasText: 'no link was made' })).toBeVisible();
	await expect(stale.getByLabel(/^The new link/)).toHaveCount(0);
	await expect(stale.getByText(/A link is out(, emailed to| for) first\.address@/)).toBeVisible();
	// The link the other tab sent is still the one out.
	await other.reload();
	await expect(other.getByText(/A link is out(, emailed to| for) first\.address@/)).toBeVisible();
	// Pressed again from the page that shows it, a link to copy is made.
	await stale.getByRole('button', { name: 'Make a link to copy' }).click();
	await expect(stale.getByLabel(/^The new link/)).toBeVisible();
	await stale.context().close();
});

test('Revoke from a tab left open ends only the link it showed, never one sent since', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Rep stale revoke');
	const stale = await repPage(browser, REPS.sam);
	await stale.goto(appPath(app.id));
	await send(stale, 'first.address@testshop.example');
	await leftInBackground(stale);
	// Another session sends a newer link; the stale tab still shows the first.
	const other = await repPage(browser, REPS.sam);
	await other.goto(appPath(app.id));
	await send(other, 'second.address@testshop.example');

	await stale.getByText('Revoke the link', { exact: true }).click();
	await stale.getByRole('button', { name: 'Yes, revoke the link' }).click();
	await expect(stale.locator('#revoke-refused')).toHaveText(
		/link changed after this page was shown .* so nothing was revoked\. Check the link the page now shows, and revoke it if it should stop working\./
	);
	// Read again: it shows the link sent since, which still works.
	await expect(stale.getByText(/A link is out(, emailed to| for) second\.address@/)).toBeVisible();
	await other.reload();
	await expect(other.getByText(/A link is out(, emailed to| for) second\.address@/)).toBeVisible();
	// Pressed again, knowing (the question is still open), it revokes that link.
	await stale.getByRole('button', { name: 'Yes, revoke the link' }).click();
	await expect(stale.getByText(/^The link was revoked:/)).toBeVisible();
	await expect(stale.getByText('There is no usable link.')).toBeVisible();
});

test('without JavaScript, Revoke from a tab left open is refused the same way', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Rep stale revoke without script');
	const rep = await repPage(browser, REPS.sam);
	await rep.goto(appPath(app.id));
	await send(rep, 'first.address@testshop.example');
	const stale = await repPage(browser, REPS.sam, { script: false });
	await stale.goto(appPath(app.id));
	await send(rep, 'second.address@testshop.example');
	await stale.getByText('Revoke the link', { exact: true }).click();
	await stale.getByRole('button', { name: 'Yes, revoke the link' }).click();
	await expect(
		stale.getByRole('alert').filter({ hasText: 'so nothing was revoked' })
	).toBeVisible();
	await expect(stale.getByText(/A link is out(, emailed to| for) second\.address@/)).toBeVisible();
	await stale.context().close();
});
