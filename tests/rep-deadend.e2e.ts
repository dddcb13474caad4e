import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import {
	TEXT,
	agreeToTerms,
	createLink,
	fillSignForm,
	freshSsn,
	linkExpiringIn,
	newApplication,
	openLinkAndStart,
	passIdentity,
	ready,
	resetSandbox,
	type TestApplication,
	AT_TERMS
} from './support/flow';
import { E2E } from './support/env';
import {
	REPS,
	SEND_LINK,
	SENT_NOTICE,
	TABLET,
	appPath,
	handOver,
	mailTo,
	repPage
} from './support/reps';

test.use({ viewport: TABLET });

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

/** The rep emails a link from the application page; the merchant's copy, from the mailbox. */
async function sendLink(rep: Page, app: TestApplication, to: string): Promise<string> {
	await rep.goto(appPath(app.id));
	await ready(rep);
	await rep.getByLabel('Owner’s email').fill(to);
	await rep.getByRole('button', { name: SEND_LINK }).click();
	await expect(rep.getByText(SENT_NOTICE)).toBeVisible();
	const { path } = await mailTo(rep, to, app.business);
	await rep.goto(appPath(app.id));
	return path;
}

/** A merchant on a phone of their own, who passes identity on `path` and then loses the page. */
async function passThenLose(browser: Browser, app: TestApplication, path: string) {
	const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
	const page = await context.newPage();
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await passIdentity(page, app.id);
	await context.close();
}

/** The merchant signs where they are; the console then says nothing of a link in use. */
async function signAndLeave(merchant: Page, rep: Page, applicationId: number) {
	await fillSignForm(merchant, { ssn: freshSsn() });
	await merchant.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(merchant.getByRole('heading', { level: 1, name: TEXT.signedTitle })).toBeVisible();
	await rep.goto(appPath(applicationId));
	await expect(rep.locator('#link-in-use')).toHaveCount(0);
	await merchant.close();
}

async function finishWith(browser: Browser, path: string) {
	const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await continueAndSign(page);
}

/** The identity step says the pass carries over; the merchant goes on to sign. */
async function continueAndSign(page: Page) {
	await expect(
		page.getByRole('heading', { name: 'Your identity is already confirmed' })
	).toBeVisible();
	await expect(page.getByRole('button', { name: 'Start the questions' })).toHaveCount(0);
	await page.getByRole('button', { name: 'Continue to signing' }).click();
	await expect(page).toHaveURL(/\/sign\/sign$/);
	await fillSignForm(page, { ssn: freshSsn() });
	await page.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(page.getByRole('heading', { level: 1, name: TEXT.signedTitle })).toBeVisible();
}

test('a new link to the address identity passed on carries the pass over', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Deadend same');
	const rep = await repPage(browser, REPS.sam);
	await passThenLose(browser, app, await sendLink(rep, app, app.email));

	// The rep resends to the same address (typed in another case): the merchant simply signs.
	const b = await sendLink(rep, app, app.email.toUpperCase());
	await expect(rep.getByText('Needs you')).toHaveCount(0);
	// Its email, too, says no questions come this time.
	const { text: resent } = await mailTo(rep, app.email.toUpperCase(), app.business);
	expect(resent).toContain(
		'read the agreement, and accept or decline. Your identity is already confirmed, so there are no questions this time.'
	);
	expect(resent).not.toContain('identity questions from the credit bureau');
	// Its page says before Start that no questions come this time.
	const look = await browser.newPage({ viewport: { width: 390, height: 844 } });
	await look.goto(b);
	await expect(look.locator('ol.steps')).toContainText(
		'Your identity is already confirmed: no questions this time.'
	);
	// Saying no is a decision now, which the service takes only with the SSN: on the sign step.
	const afterPass =
		'Your identity is already confirmed, so a decline goes to the onboarding service as your decision';
	await look.getByText('I don’t want to sign').click();
	const said = look.locator('details.decline[open] p');
	await expect(said).toContainText(afterPass);
	await expect(said).toContainText('Press Start, then choose Decline on the last step');
	await expect(look.getByRole('button', { name: 'Decline the application' })).toHaveCount(0);
	// A decline without it, posted from an older page, is refused, and nothing is recorded.
	const post = await look.request.post(`${b}?/decline`, {
		form: { reason: 'Not for us' },
		headers: { origin: new URL(look.url()).origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(post.status()).toBe(409);
	expect(await post.text()).toContain('Nothing was recorded: go on to the last step');
	// Nor on the agreement, where the form is still offered: it says where to decline instead.
	await openLinkAndStart(look, b);
	await look.getByText('I don’t want to sign').click();
	await look.getByLabel('Reason (optional)').fill('Not for us');
	await look.getByRole('button', { name: 'Decline the application' }).click();
	await expect(look.locator('#decline-reason-error')).toContainText(afterPass);
	await expect(look).toHaveURL(AT_TERMS);
	await expect(look.getByLabel('Reason (optional)')).toHaveValue('Not for us');
	// And on the identity step, which says it with the pass, and offers no form.
	await agreeToTerms(look);
	await expect(look.locator('.then-decline')).toContainText(
		'If you don’t want to sign, continue all the same and choose Decline there: with your identity confirmed, a decline goes to the onboarding service as your decision'
	);
	await expect(look.getByText('I don’t want to sign')).toHaveCount(0);
	await look.close();
	await finishWith(browser, b);
	await rep.goto(`/rep?q=${encodeURIComponent(app.business)}`);
	await expect(rep.locator(`li[data-application="${app.id}"] .badge`)).toHaveText('Signed');
	await rep.goto(appPath(app.id));
	await expect(
		rep.getByText('Carried over from an earlier link sent to the same email address')
	).toBeVisible();
});

test('a link to another address sends the merchant to the rep, whose console says what to do', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Deadend other');
	const rep = await repPage(browser, REPS.sam);
	await passThenLose(browser, app, await sendLink(rep, app, app.email));

	// The console says the merchant can finish on the link that is out, and which address a new
	// one carries the pass to, and refuses a link that could not carry it, before anything is sent.
	await rep.goto(appPath(app.id));
	await expect(rep.locator('#link-in-use')).toContainText(
		'The merchant is signing on the link that is out, right now.'
	);
	await expect(rep.getByLabel('Owner’s email')).toHaveAccessibleDescription(
		new RegExp(
			`Identity was already confirmed on the link that is out, sent to ${app.email.replace(/\./g, '\\.')}: the merchant can finish on it\\. A new link carries that over only if it goes to that address\\.$`
		)
	);
	const other = 'morgan.personal@example.net';
	await rep.getByLabel('Owner’s email').fill(other);
	await rep.getByRole('button', { name: SEND_LINK }).click();
	await expect(rep.getByRole('alert')).toContainText(
		`Identity was already confirmed on the link sent to ${app.email}, and a link to another address can’t carry that over`
	);
	await expect(rep.getByRole('alert')).toContainText(
		'The link that is out still works: the merchant can finish on it.'
	);
	await expect(rep.getByLabel('Owner’s email')).toHaveValue(other);
	// A link to copy could not carry it either: it is not offered, and the card says why.
	await expect(rep.getByRole('button', { name: 'Make a link to copy' })).toHaveCount(0);
	await expect(rep.locator('#copy-none')).toHaveText(
		`No link to copy can be made now: a copied link can’t carry over the identity the merchant already confirmed, so they would be stopped on it. Send the link to ${app.email} above, or finish the signing in person below.`
	);
	await rep.goto('/dev/mailbox');
	await expect(rep.getByText(other)).toHaveCount(0);

	// The operator's API makes one all the same (its systems decide for themselves).
	const b = (await createLink(request, app.id, { email: other })).path;
	await rep.goto(appPath(app.id));
	const note = rep.locator('.attention');
	await expect(note).toContainText(`Identity was confirmed on the link sent to ${app.email}.`);
	await expect(note).toContainText(`The current link (to ${other}) can’t carry it over`);
	await expect(note).toContainText(`Send a new link to ${app.email}`);
	// The send form offers that address.
	await expect(rep.getByLabel('Owner’s email')).toHaveValue(app.email);

	// The merchant meets no button that cannot work: the page names the rep instead.
	const merchant = await browser.newPage({ viewport: { width: 390, height: 844 } });
	await merchant.goto(b);
	await expect(merchant.getByRole('alert')).toContainText(
		'Your identity was already confirmed using an earlier link that went to a different email address.'
	);
	await expect(merchant.getByRole('button', { name: 'Start' })).toHaveCount(0);
	await expect(
		merchant.getByText(
			'Your sales representative: Sam Ortiz, sam.ortiz@office1207.example, (217) 555-0100'
		)
	).toBeVisible();
	// On the phone, each way to reach the rep is a line of its own, a full touch target high.
	const email = await merchant
		.getByRole('link', { name: 'sam.ortiz@office1207.example' })
		.boundingBox();
	const phone = await merchant.getByRole('link', { name: '(217) 555-0100' }).boundingBox();
	expect(phone!.x).toBe(email!.x);
	expect(phone!.y).toBeGreaterThanOrEqual(email!.y + email!.height);
	expect(Math.min(email!.height, phone!.height)).toBeGreaterThanOrEqual(44);
	// …with no comma left to end the name's line or the address's.
	expect(await merchant.locator('.rep').innerText()).not.toContain(',');
	await rep.goto(`/rep?q=${encodeURIComponent(app.business)}`);
	await expect(rep.locator(`li[data-application="${app.id}"]`)).toContainText('Needs you:');

	// The rep does what the console says, and the merchant finishes.
	await finishWith(browser, await sendLink(rep, app, app.email));
	await expect(rep.locator('.attention')).toHaveCount(0);
});

test('a pass on a copied link that is still out: the console says the merchant can finish on it', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Deadend copied');
	const rep = await repPage(browser, REPS.sam);
	await rep.goto(appPath(app.id));
	await ready(rep);
	await rep.getByRole('button', { name: 'Make a link to copy' }).click();
	const url = await rep.getByLabel(/^The new link \(works until /).inputValue();
	// The merchant passes identity on it and stops at the last step, on their own phone.
	const merchant = await browser.newPage({ viewport: { width: 390, height: 844 } });
	await openLinkAndStart(merchant, new URL(url).pathname);
	await agreeToTerms(merchant);
	await passIdentity(merchant, app.id);
	await expect(merchant).toHaveURL(/\/sign\/sign$/);

	// The console does not send the rep to the tablet: the merchant is fine where they are.
	await rep.goto(appPath(app.id));
	// No new link can be made: the note does not speak of one.
	await expect(rep.locator('#link-in-use')).not.toContainText('A new link');
	// No new link is offered, emailed or to copy: none could carry the pass over.
	await expect(rep.locator('#no-link')).toContainText(
		'Identity was already confirmed on the link that is out: the merchant can finish on it. No new link can carry that over. A link, emailed or to copy, would stop the merchant at the identity questions.'
	);
	await expect(rep.getByText('so finish the signing in person')).toHaveCount(0);
	await expect(rep.getByRole('button', { name: 'Make a link to copy' })).toHaveCount(0);
	await expect(rep.getByRole('button', { name: SEND_LINK })).toHaveCount(0);
	// One asked for from a page shown before the pass (a tab left open) is refused, saying so, and
	// the merchant's link goes on working.
	const refused = await rep.request.post(`${appPath(app.id)}?/copy`, {
		form: { shown: await rep.locator('form[action="?/revoke"] input[name="shown"]').inputValue() },
		headers: { origin: E2E.origin, accept: 'text/html' }
	});
	expect(refused.status()).toBe(409);
	const words = await refused.text();
	expect(words).toContain('No link was made.');
	expect(words).toContain(
		'The link that is out still works: the merchant can finish on it. Or finish the signing with them in person'
	);
	await signAndLeave(merchant, rep, app.id);
});

test('in person, a pass on a lost link carries over: the rep checked the photo ID', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Deadend in person');
	const rep = await repPage(browser, REPS.sam);
	await passThenLose(browser, app, await sendLink(rep, app, app.email));

	// The refusal's own advice: the rep helps the merchant finish in person, on the tablet.
	await handOver(rep, app.id);
	await expect(rep).toHaveURL(/\/sign\/terms$/);
	await agreeToTerms(rep);
	await expect(rep.getByText('your sales representative has checked your photo ID')).toBeVisible();
	await expect(rep.getByText('This link can’t confirm your identity')).toHaveCount(0);
	await continueAndSign(rep);
	// The certificate says where the pass came from: not "an earlier session on the same link".
	// (The tablet is locked now: the rep's certificate, from another device.)
	const desk = await repPage(browser, REPS.sam);
	// Beside the documents, the way to check a copy someone sends back.
	await desk.goto(appPath(app.id));
	await desk.getByRole('link', { name: 'the portal’s check page' }).click();
	await expect(desk).toHaveURL(/\/verify$/);
	const cert = await desk.request.get(`${appPath(app.id)}/certificate.pdf`);
	expect(cert.status()).toBe(200);
	const file = resolve(E2E.dir, 'deadend-in-person-certificate.pdf');
	writeFileSync(file, await cert.body());
	const text = spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' });
	expect(text.stdout.replace(/\s+/g, ' ')).toContain(
		'Passed on try 1, carried over from an earlier pass, the rep having checked the signer’s photo ID in person'
	);
});

test('a link that expires while the merchant signs on it: the console says they can still finish, and what a new link would end', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Deadend expired midway');
	const { path, outlive } = await linkExpiringIn(request, app.id, 8_000);
	const merchant = await browser.newPage({ viewport: { width: 390, height: 844 } });
	await openLinkAndStart(merchant, path);
	await agreeToTerms(merchant);
	await passIdentity(merchant, app.id);
	await outlive(merchant);

	const rep = await repPage(browser, REPS.sam);
	await rep.goto(appPath(app.id));
	await expect(rep.getByText(/^The current link expired /)).toBeVisible();
	await expect(rep.locator('#link-in-use')).toContainText(
		'The link has expired, but the merchant started signing on it before then and is on it right now: they can still finish.'
	);
	// No new link can be made: the note does not speak of one.
	await expect(rep.locator('#link-in-use')).not.toContainText('A new link');
	await expect(rep.locator('#no-link')).toContainText(
		'Identity was already confirmed on the link that is out: it has expired, but the merchant’s session on it is still open and they can finish there. No new link can carry that over.'
	);
	await expect(rep.getByText('so finish the signing in person')).toHaveCount(0);
	// Handing over would stop them too, and the In person card says so before.
	await expect(
		rep.getByText('The link that is out stops working when you hand over')
	).toBeVisible();
	// No Send is offered; one posted from a page shown before (a tab left open) is refused, and
	// the refusal says they can still finish.
	await expect(rep.getByRole('button', { name: SEND_LINK })).toHaveCount(0);
	const refused = await rep.request.post(`${appPath(app.id)}?/send`, {
		form: { shown: 'none', email: app.email },
		headers: { origin: E2E.origin, accept: 'text/html' }
	});
	const words = await refused.text();
	expect(words).toContain('Nothing was sent.');
	expect(words).toContain(
		'The link that is out has expired, but the merchant started signing on it before then and is on it right now: they can still finish. Or finish the signing with them in person'
	);

	// They do finish, on the expired link's session.
	await signAndLeave(merchant, rep, app.id);
	// The rep's timeline says when the link expired, and that the session went on past it; so does
	// the certificate, among its key steps.
	await expect(rep.locator('.timeline')).toContainText(
		'Signing link expired From then on it opened nothing new; the merchant’s session started on it before then went on Portal'
	);
	const cert = await rep.request.get(`${appPath(app.id)}/certificate.pdf`);
	expect(cert.status()).toBe(200);
	const file = resolve(E2E.dir, 'deadend-expired-midway-certificate.pdf');
	writeFileSync(file, await cert.body());
	const text = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).stdout;
	// The key steps' table, between its heading and the documents' (headings print in capitals).
	const steps = text.slice(text.search(/when it happened/i), text.search(/documents presented/i));
	expect(steps).toMatch(
		/Identity verified[\s\S]*Link expired; session went on[\s\S]*Accepted and signed/
	);
	// And the session's timeline, among its events, saying it is not one.
	const plain = spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' }).stdout.replace(
		/\s+/g,
		' '
	);
	expect(plain).toContain(
		'The signing link expired, at the time set when it was made (not an event of the trail). This session, started on it before then, went on, as the portal allows.'
	);
});
