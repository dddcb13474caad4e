import { spawnSync } from 'node:child_process';
import { expect, test, type Browser, type Page } from '@playwright/test';
import {
	DEMO,
	TEXT,
	agreeToTerms,
	answerQuestions,
	clearFaults,
	createLink,
	fillSignForm,
	fillSigner,
	freshSsn,
	linkExpiringIn,
	newApplication,
	openLinkAndStart,
	passIdentity,
	ready,
	resetSandbox,
	setFault,
	startQuestions,
	walkTo,
	type TestApplication
} from './support/flow';
import { REPS, TABLET, appPath, consoleEntry, repPage } from './support/reps';

test.use({ viewport: TABLET });

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});
test.afterEach(async ({ request }) => {
	await clearFaults(request);
});

/** The console's entry of an application (found by searching its name), with its state. */
async function expectState(
	rep: Page,
	app: TestApplication,
	label: string,
	detail?: string | RegExp
) {
	await rep.goto(`/rep?q=${encodeURIComponent(app.business)}`);
	const entry = consoleEntry(rep, app.id);
	await expect(entry.locator('.badge')).toHaveText(label);
	if (detail) await expect(entry).toContainText(detail);
	return entry;
}

/** Downloads the document behind the link named `name`, as a rep's click would; its file path. */
async function download(rep: Page, name: string | RegExp): Promise<string> {
	const [file] = await Promise.all([
		rep.waitForEvent('download'),
		rep.getByRole('link', { name }).click()
	]);
	return file.path();
}

/** poppler's view of a PDF: its text, and what a reader says about its seal. */
function pdf(path: string) {
	const run = (cmd: string, ...args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' }).stdout;
	return { text: run('pdftotext', path, '-'), seal: run('pdfsig', path) };
}

/** A merchant on a device of their own. */
async function merchant(browser: Browser) {
	const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
	return context.newPage();
}

test('the office’s list the service can’t give: silent, or answering 404 (no such office there)', async ({
	browser,
	request
}) => {
	const rep = await repPage(browser, REPS.sam);
	await setFault(request, 'listapplications', { status: 503 });
	await rep.goto('/rep');
	await expect(rep.getByRole('alert')).toContainText(
		'The onboarding service isn’t answering, so the office’s applications can’t be listed right now.'
	);
	// A 404 is an answer: the account's office, or the portal's address for the service, is wrong.
	await setFault(request, 'listapplications', { status: 404 });
	await rep.reload();
	await expect(rep.getByRole('alert')).toContainText(
		'The onboarding service says it has no office 1207, so there is nothing to list.'
	);
	await expect(rep.getByText(/isn’t answering/)).toHaveCount(0);
	await expect(rep.getByText('Your office has no applications yet.')).toHaveCount(0);
	// An application's page, likewise.
	await rep.goto(appPath(DEMO.ordinary));
	await expect(
		rep.getByRole('heading', { level: 1, name: 'The onboarding service doesn’t know this office' })
	).toBeVisible();
	await expect(rep.getByText(/isn’t answering/)).toHaveCount(0);
	await clearFaults(request);
	await rep.goto('/rep');
	await rep.reload();
	await expect(rep.getByRole('alert')).toHaveCount(0);
	await rep.context().close();
});

test('before and around the link: not sent, link sent, expired, revoked', async ({
	browser,
	request
}) => {
	const rep = await repPage(browser, REPS.sam);
	const fresh = await newApplication(request, 'Console fresh');
	await expectState(rep, fresh, 'Not sent', 'No signing link yet.');
	// Nothing is decided: no certificate is offered, and its address says why.
	await rep.goto(appPath(fresh.id));
	await expect(rep.getByText('can be downloaded here once the merchant signs')).toBeVisible();
	await expect(rep.getByRole('link', { name: /certificate|signed copy/ })).toHaveCount(0);
	const early = await rep.request.get(`${appPath(fresh.id)}/certificate.pdf`);
	expect(early.status()).toBe(404);
	expect(await early.text()).toContain('There is no certificate for this application');
	// Opened in the browser, the address says so on a page of ours, with a way on.
	await rep.goto(`${appPath(fresh.id)}/certificate.pdf`);
	await expect(rep.getByRole('heading', { level: 1 })).toHaveText('Not available');
	await expect(rep.getByText('There is no certificate for this application')).toBeVisible();
	await expect(rep.getByText('Use your browser’s Back button')).toBeVisible();
	await expect(rep.getByRole('link', { name: 'portal’s start page' })).toHaveAttribute('href', '/');
	await expect(rep).toHaveTitle('Not available (404) · Merchant signing portal');
	// An application the service has as decided, with no signing here (the demo office's 50004):
	// its page and its documents' addresses say it was decided outside the portal.
	await rep.goto(appPath(50004));
	await expect(rep.getByText('decided outside the portal.')).toBeVisible();
	for (const [file, document] of [
		['certificate.pdf', 'certificate'],
		['signed-copy.pdf', 'signed copy']
	]) {
		const elsewhere = await rep.request.get(`${appPath(50004)}/${file}`);
		expect(elsewhere.status()).toBe(404);
		expect(await elsewhere.text()).toContain(
			`There is no ${document} for this application: the onboarding service has it as decided outside the portal`
		);
	}

	const sent = await newApplication(request, 'Console sent');
	await createLink(request, sent.id, { email: 'morgan@testshop.example' });
	// "Emailed" once the outbox has sent it (to the development mailbox here), not when queued.
	await expect(async () => {
		await expectState(
			rep,
			sent,
			'Link sent',
			/Emailed to morgan@testshop\.example .* C[SD]T; valid until .* C[SD]T\./
		);
	}).toPass({ timeout: 15_000 });

	const expiring = await newApplication(request, 'Console expiring');
	await (await linkExpiringIn(request, expiring.id, 2_000)).outlive(rep);
	await expectState(rep, expiring, 'Link expired', /The link expired .* C[SD]T\. Send a new one\./);
	// An expired link opens nothing already: nothing to revoke.
	await rep.goto(appPath(expiring.id));
	await expect(rep.getByText(/The current link expired/)).toBeVisible();
	await expect(rep.getByText('Revoke the link', { exact: true })).toHaveCount(0);

	await rep.goto(appPath(sent.id));
	await rep.getByText('Revoke the link', { exact: true }).click();
	await rep.getByRole('button', { name: 'Yes, revoke the link' }).click();
	await expect(rep.getByRole('status').filter({ hasText: 'The link was revoked' })).toBeVisible();
	await expectState(rep, sent, 'Not sent', /The last link was revoked .* C[SD]T\./);
});

test('while the merchant works: each step, then a lock', async ({ browser, request }) => {
	const rep = await repPage(browser, REPS.sam);
	const steps: [string, 'terms' | 'identity' | 'sign'][] = [
		['In progress: reading the agreement', 'terms'],
		['In progress: identity step', 'identity'],
		['In progress: signing', 'sign']
	];
	for (const [label, step] of steps) {
		const app = await newApplication(request, `Console ${step}`);
		await walkTo(await merchant(browser), request, app, step);
		await expectState(rep, app, label, 'The merchant is on it now');
	}
	// At the identity step the questions are named once they are on the merchant's screen.
	const asked = await newApplication(request, 'Console asked');
	const answering = await merchant(browser);
	await walkTo(answering, request, asked, 'identity');
	await startQuestions(answering);
	await expectState(rep, asked, 'In progress: identity questions', 'The merchant is on it now');

	const locked = await newApplication(request, 'Console locked');
	const m = await merchant(browser);
	await walkTo(m, request, locked, 'identity');
	for (let i = 0; i < 2; i++) {
		await startQuestions(m);
		await answerQuestions(m, locked.id, 'wrong');
		await expect(m).toHaveURL(/\/sign\/identity$/);
		// After the first miss the rep reads that one more locks the questions.
		if (i === 0) {
			await expectState(
				rep,
				locked,
				'In progress: identity step',
				'ended without a pass: 1 of 2 tries is left. One more that ends without a pass locks the questions.'
			);
		}
	}
	await expect(m.getByText(TEXT.locked)).toBeVisible();
	// The merchant's page names their rep beside the lock.
	await expect(m.getByRole('alert')).toContainText('Your sales representative: Sam Ortiz');
	await expectState(rep, locked, 'Identity locked', /locked until .* C[SD]T\./);
	await rep.goto(appPath(locked.id));
	await expect(rep.getByText('Identity questions locked for 24 hours')).toBeVisible();
	// No hand-over into the same lock: the page says when an in-person signing can start.
	await expect(rep.getByRole('region', { name: 'In person' })).toContainText(
		/Not before .* C[SD]T: the identity questions\s+are locked until then on every device, so a signing in person would stop at them too\./
	);
	await expect(rep.getByRole('button', { name: 'Hand to merchant' })).toHaveCount(0);
	// A link can still be sent (for after the lock), but not without saying what it shows before.
	await expect(rep.getByRole('note')).toContainText(
		/The identity questions are locked until .* C[SD]T, on every device\.\s+A merchant who\s+opens a link before then is told so, with the time, and can only decline until then/
	);
	// A hand-over posted from an older page is refused the same way.
	const posted = await rep.request.post(`${appPath(locked.id)}?/handOver`, {
		form: { photoIdChecked: 'on' },
		headers: { origin: new URL(rep.url()).origin },
		maxRedirects: 0
	});
	// Answered as an action result (the request accepts JSON): the refusal and its words.
	expect(await posted.json()).toMatchObject({ type: 'failure', status: 409 });
	expect(await posted.text()).toMatch(
		/The identity questions are locked until .* C[SD]T, on every device: a signing in person would stop at them too\./
	);
	// The merchant is told when, and not sent to an in-person signing that would stop there too.
	await expect(m.getByRole('alert')).toContainText(/You can try again after .*, from your link\./);
	await expect(m.getByRole('alert')).not.toContainText('in person');

	// The merchant declines instead: the rep reads that a new start would still meet the lock, and
	// the page still offers no hand-over into it.
	await ready(m);
	await m.getByText('I don’t want to sign').click();
	await m.getByRole('button', { name: 'Decline the application' }).click();
	await expect(m.getByRole('heading', { level: 1, name: TEXT.declinedTitle })).toBeVisible();
	await expectState(
		rep,
		locked,
		'Declined',
		/A new link or an in-person signing opens it again, but the identity questions are locked until .* C[SD]T after too many failed tries: the merchant can answer them only after then\./
	);
	await rep.goto(appPath(locked.id));
	await expect(rep.getByRole('region', { name: 'In person' })).toContainText(
		/Not before .* C[SD]T/
	);
	await expect(rep.getByRole('button', { name: 'Hand to merchant' })).toHaveCount(0);
});

test('outcomes: signed, declined with the reason, being delivered, delivery failed', async ({
	browser,
	request
}) => {
	const rep = await repPage(browser, REPS.sam);

	const signed = await newApplication(request, 'Console signed');
	await walkTo(await merchant(browser), request, signed, 'done');
	await expectState(rep, signed, 'Signed', /Accepted and signed .* C[SD]T\./);
	// The evidence module's sealed documents: the rep's certificate carries the whole trail.
	await rep.goto(appPath(signed.id));
	// The service's status agrees with the portal's. (A copy from before the decision, younger
	// than the refresh, is serviceStatus's unit test: at the tests' 2 s refresh it is gone here.)
	await expect(rep.locator('dt:has-text("Service status") + dd')).toHaveText('Signed');
	const certificate = pdf(await download(rep, /certificate of completion, with the full trail/));
	expect(certificate.seal).toContain('Signature is Valid.');
	expect(certificate.text).toContain(signed.business);
	expect(certificate.text).toContain('APPENDIX: THE APPLICATION’S FULL AUDIT TRAIL');
	expect(certificate.text).toContain('The office’s copy, with the application’s whole audit trail');
	const copy = pdf(await download(rep, /The signed copy/));
	expect(copy.seal).toContain('Signature is Valid.');
	// The signer's copy, the one to send the merchant: sealed, as they downloaded it, without the
	// office's trail.
	await expect(
		rep.getByText('A merchant who asks for their copies gets the signed copy')
	).toBeVisible();
	const signer = pdf(await download(rep, /The signer’s copy of the certificate/));
	expect(signer.seal).toContain('Signature is Valid.');
	expect(signer.text).toContain(signed.business);
	expect(signer.text).toContain('signer’s copy');
	expect(signer.text).not.toContain('APPENDIX');
	expect(signer.text).not.toContain('office’s copy');
	// A hand-over posted from a page older than the signing: nothing left to sign in person.
	const stale = await rep.request.post(`${appPath(signed.id)}?/handOver`, {
		form: { photoIdChecked: 'on', idType: 'drivers_license', idLast4: '1234' },
		headers: { origin: new URL(rep.url()).origin },
		maxRedirects: 0
	});
	expect(await stale.json()).toMatchObject({ type: 'failure', status: 409 });
	expect(await stale.text()).toContain('so there is nothing left to sign in person');

	const declined = await newApplication(request, 'Console declined');
	const m = await merchant(browser);
	await walkTo(m, request, declined, 'sign');
	await m.getByRole('button', { name: 'Decline', exact: true }).click();
	await m.getByLabel('Reason (optional)').fill('The monthly fee is too high for us.');
	await fillSigner(m, { ssn: freshSsn() });
	await m.getByRole('button', { name: 'Yes, decline' }).click();
	await expect(m).toHaveURL(/\/sign\/done$/);
	await expectState(rep, declined, 'Declined', 'Reason: “The monthly fee is too high for us.”');
	await rep.goto(appPath(declined.id));
	await expect(
		rep.getByRole('heading', { name: 'The merchant’s reason for declining' })
	).toBeVisible();
	// Under its own heading, and not again in the state's sentence beside it.
	const where = rep.locator('section', {
		has: rep.getByRole('heading', { name: 'Where it stands' })
	});
	await expect(where.getByText('The monthly fee is too high for us.')).toHaveCount(1);
	// A decline has its certificate and no signed copy.
	await expect(rep.getByRole('link', { name: /The signed copy/ })).toHaveCount(0);
	expect(pdf(await download(rep, /certificate of completion/)).text).toContain(declined.business);

	for (const [status, label] of [
		[503, 'Decision being delivered'],
		[400, 'Delivery failed']
	] as const) {
		const app = await newApplication(request, `Console ${status}`);
		const page = await merchant(browser);
		await walkTo(page, request, app, 'sign');
		await setFault(request, 'merchantdecision', { status });
		await fillSignForm(page, { ssn: freshSsn() });
		await page.getByRole('button', { name: 'Accept and sign' }).click();
		await expect(page).toHaveURL(/\/sign\/done$/);
		await expectState(rep, app, label);
		await clearFaults(request);
	}
});

test('signed under names other than the owner’s: the list says who, as the timeline does', async ({
	browser,
	request
}) => {
	const rep = await repPage(browser, REPS.sam);
	const app = await newApplication(request, 'Console other signer');
	const m = await merchant(browser);
	await walkTo(m, request, app, 'sign');
	// The owner's names, as the page fills them: nothing to say.
	await expect(m.getByLabel('Last name')).toHaveValue('Testwell');
	await expect(m.locator('#not-owner')).toHaveCount(0);
	// Not while a name is half typed: the owner typing their own is not told it is another's.
	await m.getByLabel('Last name').fill('');
	await m.getByLabel('Last name').pressSequentially('Test');
	await expect(m.locator('#not-owner')).toHaveCount(0);
	await fillSignForm(m, { first: 'Olga', last: 'Petrova', ssn: freshSsn() });
	// Said to the signer as each name is left, before they sign.
	await expect(m.locator('#not-owner')).toContainText(
		'The application’s owner is Morgan Testwell, and the identity questions were about them.'
	);
	await expect(m.getByLabel('Last name')).toHaveAttribute('aria-describedby', /\bnot-owner\b/);
	// Case and accents aside, the owner's names are the owner's.
	await m.getByLabel('First name').fill('MORGAN');
	await m.getByLabel('Last name').fill('Téstwell');
	await m.getByLabel('Last name').blur();
	await expect(m.locator('#not-owner')).toHaveCount(0);
	await m.getByLabel('First name').fill('Olga');
	await m.getByLabel('Last name').fill('Petrova');
	await m.getByLabel('Last name').blur();
	await expect(m.locator('#not-owner')).toBeVisible();
	await m.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(m).toHaveURL(/\/sign\/done$/);
	const said = 'Signed by Olga Petrova, not the owner the application names (Morgan Testwell).';
	const entry = await expectState(rep, app, 'Signed', /Accepted and signed .* C[SD]T\./);
	await expect(entry).toContainText(said);
	await rep.goto(appPath(app.id));
	await expect(rep.locator('.timeline')).toContainText(
		'Signed by Olga Petrova, not the owner the application names (Morgan Testwell)'
	);
});

test('identity passed and the merchant gone: the console says what to send', async ({
	browser,
	request
}) => {
	const rep = await repPage(browser, REPS.sam);
	const app = await newApplication(request, 'Console passed');
	const { url } = await createLink(request, app.id, { email: app.email });
	const m = await merchant(browser);
	await openLinkAndStart(m, new URL(url).pathname);
	await agreeToTerms(m);
	await passIdentity(m, app.id);
	await expectState(rep, app, 'In progress: signing');

	// The merchant's session ends with the link (the rep revoked it, say by mistake).
	await rep.goto(appPath(app.id));
	await rep.getByText('Revoke the link', { exact: true }).click();
	await rep.getByRole('button', { name: 'Yes, revoke the link' }).click();
	const entry = await expectState(
		rep,
		app,
		'Identity passed',
		/Identity confirmed .* not signed yet\./
	);
	await expect(entry).toContainText(
		`Needs you: Send a new link to ${app.email}: a link to that address carries the confirmed identity over.`
	);
});

test('the console refreshes itself while the merchant finishes', async ({ browser, request }) => {
	const rep = await repPage(browser, REPS.sam);
	const app = await newApplication(request, 'Console live');
	const m = await merchant(browser);
	await walkTo(m, request, app, 'sign');
	await rep.goto(`/rep?q=${encodeURIComponent(app.business)}`);
	await expect(rep.getByText('this page refreshes itself while it is open.')).toBeVisible();
	const badge = consoleEntry(rep, app.id).locator('.badge');
	await expect(badge).toHaveText('In progress: signing');
	// A mark that a reload would wipe: the page must change without one.
	await rep.evaluate(() => ((window as unknown as { mark: number }).mark = 1));

	await fillSignForm(m, { ssn: freshSsn() });
	await m.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(m).toHaveURL(/\/sign\/done$/);

	await expect(badge).toHaveText('Signed', { timeout: 20_000 });
	expect(await rep.evaluate(() => (window as unknown as { mark?: number }).mark)).toBe(1);
});

test('left alone for nearly the idle timeout the console stops refreshing and says so; the rep’s next key starts it again', async ({
	browser
}) => {
	const rep = await repPage(browser, REPS.sam);
	// The page's own clock, moved on by hand: the session's idle timeout is 30 minutes here.
	await rep.clock.install();
	await rep.goto('/rep');
	await ready(rep);
	const meta = rep.locator('p.meta');
	await expect(meta).toContainText('this page refreshes itself while it is open.');
	const refreshes: string[] = [];
	// Whether each refresh told the server nobody had touched the page since the one before.
	const unattended: boolean[] = [];
	rep.on('request', async (r) => {
		if (!r.url().includes('/rep/__data.json')) return;
		refreshes.push(r.url());
		// A refresh the page starts as the test ends has no headers left to read: not counted.
		const cookie = await r.allHeaders().then(
			(h) => h.cookie ?? '',
			() => null
		);
		if (cookie !== null) unattended.push(cookie.includes('rep_unattended=1'));
	});
	await rep.clock.runFor(2_100);
	await expect.poll(() => refreshes.length).toBeGreaterThan(0);
	// The first follows the rep's own load; the next, untouched, is no activity of theirs.
	await rep.clock.runFor(2_100);
	await expect.poll(() => unattended.length).toBeGreaterThan(1);
	expect(unattended.slice(0, 2)).toEqual([false, true]);
	await rep.keyboard.press('Shift');
	await rep.clock.runFor(2_100);
	await expect.poll(() => unattended.length).toBeGreaterThan(2);
	expect(unattended[2]).toBe(false);
	// The cookie is the refresh's alone: gone once it is answered.
	await expect
		.poll(async () => (await rep.context().cookies()).some((c) => c.name === 'rep_unattended'))
		.toBe(false);
	// 29 minutes untouched: the console no longer asks, so the rep's session can time out.
	await rep.clock.fastForward('29:00');
	await expect(meta).toContainText(
		'this page stopped refreshing itself while nobody used it, and starts again when you do.'
	);
	await expect(meta).not.toContainText('refreshes itself while it is open');
	const before = refreshes.length;
	await rep.clock.runFor(10_000);
	expect(refreshes.length).toBe(before);
	// The rep is back: a refresh at once, and the promise again.
	await rep.keyboard.press('Shift');
	await expect.poll(() => refreshes.length).toBeGreaterThan(before);
	await expect(meta).toContainText('this page refreshes itself while it is open.');
	await rep.context().close();
});

test('the search box keeps what the rep types through the page’s refresh; Show and Clear set it', async ({
	browser
}) => {
	const rep = await repPage(browser, REPS.sam);
	// A page loaded afresh (hydrated, not rendered in the browser): its first refresh is the one
	// that used to put the search back.
	await rep.goto('/rep?q=Blue');
	await ready(rep);
	const search = rep.getByLabel('Search business or owner');
	await expect(search).toHaveValue('Blue');
	await search.fill('Two Riv');
	for (let i = 0; i < 2; i++) {
		await rep.waitForResponse((r) => r.url().includes('/__data.json') && r.ok());
	}
	await expect(search).toHaveValue('Two Riv');
	await rep.getByRole('button', { name: 'Show' }).click();
	await expect(rep).toHaveURL(/\/rep\?q=Two\+Riv$/);
	await expect(consoleEntry(rep, DEMO.secondOwner)).toBeVisible();
	// The answer is a redirect: focus stays where the rep was, not at the top of the page.
	await expect(rep.getByRole('button', { name: 'Show' })).toBeFocused();
	// On a tablet the fields and the buttons sit in one row, tops and bottoms in line.
	const boxes = await Promise.all(
		[
			search,
			rep.getByLabel('State'),
			rep.getByRole('button', { name: 'Show' }),
			rep.getByRole('link', { name: 'Clear' })
		].map((l) => l.boundingBox())
	);
	for (const box of boxes) {
		expect(box!.y).toBeCloseTo(boxes[0]!.y, 0);
		expect(box!.height).toBeCloseTo(boxes[0]!.height, 0);
	}
	await rep.getByRole('link', { name: 'Clear' }).click();
	await expect(rep).toHaveURL(/\/rep$/);
	await expect(search).toHaveValue('');
	// An SSN searched for, with script: refused, and gone from the field too. The search is
	// posted: the number is in no address the browser asked for.
	const asked: string[] = [];
	rep.on('request', (r) => asked.push(r.url()));
	await search.fill('372-51-8806');
	await rep.getByRole('button', { name: 'Show' }).click();
	await expect(rep).toHaveURL(/\/rep\?refused=ssn$/);
	expect(asked.filter((u) => /8806/.test(u))).toEqual([]);
	expect(asked.some((u) => u.includes('/rep?/search'))).toBe(true);
	await expect(rep.getByRole('alert')).toContainText('looked like a Social Security Number');
	await expect(search).toHaveValue('');
	await expect(search).toHaveAttribute('aria-invalid', 'true');
	// Sent with Show or not, the rep is taken back to the field to search again.
	await expect(search).toBeFocused();
	await expect(search).toHaveAccessibleDescription(/looked like a Social Security Number/);
	// A search sent from the field with Enter leaves the rep in the field.
	await search.fill('Two Riv');
	await search.press('Enter');
	await expect(rep).toHaveURL(/\/rep\?q=Two\+Riv$/);
	await expect(search).toBeFocused();
	await expect(search).not.toHaveAttribute('aria-invalid');
});

test('search and filter by state work without JavaScript', async ({ browser, request }) => {
	const a = await newApplication(request, 'Nojs Alpha');
	const b = await newApplication(request, 'Nojs Beta');
	await createLink(request, b.id, { email: b.email });
	const page = await repPage(browser, REPS.sam, { script: false });

	// No script, no refresh: the page does not promise one.
	await expect(page.getByText('reload the page to see what changed since.')).toBeVisible();
	await expect(page.getByText('refreshes itself')).toHaveCount(0);
	await page.getByLabel('Search business or owner').fill('Nojs');
	await page.getByRole('button', { name: 'Show' }).click();
	await expect(page).toHaveURL(/\/rep\?q=Nojs$/);
	await expect(consoleEntry(page, a.id)).toBeVisible();
	await expect(consoleEntry(page, b.id)).toBeVisible();
	// The service's MM/DD/YYYY, written as every other date on the rep pages.
	await expect(consoleEntry(page, a.id)).toContainText(/· created [A-Z][a-z]{2} \d{1,2}, \d{4}/);
	// (The sandbox may hold more "Nojs" shops: the helper discards ids an earlier test used.)
	const entries = page.locator('li[data-application]');
	for (const text of await entries.allInnerTexts()) expect(text).toContain('Nojs');
	expect(await page.locator('li[data-application]').count()).toBeLessThan(
		Number((await page.getByText(/^All states \((\d+)\)$/).innerText()).match(/\d+/)![0])
	);

	// An SSN typed into the search is not searched for, kept in any address or shown back.
	const asked: string[] = [];
	page.on('request', (r) => asked.push(r.url()));
	await page.getByLabel('Search business or owner').fill('372 51 8806');
	await page.getByRole('button', { name: 'Show' }).click();
	await expect(page).toHaveURL(/\/rep\?refused=ssn$/);
	expect(asked.filter((u) => /8806/.test(u))).toEqual([]);
	await expect(page.getByRole('alert')).toContainText('looked like a Social Security Number');
	await expect(page.getByLabel('Search business or owner')).toHaveValue('');
	expect(await page.content()).not.toMatch(/8806/);
	// Nor one beside a superscript digit; and a search refused as too long is shown back cut, less
	// the nine digits the cut leaves of a longer number.
	await page.getByLabel('Search business or owner').fill('¹372518806');
	await page.getByRole('button', { name: 'Show' }).click();
	await expect(page).toHaveURL(/\/rep\?refused=ssn$/);
	expect(asked.filter((u) => /8806/.test(u))).toEqual([]);
	// Nor one sent as the state (no page offers that: a client of its own), with the search or in
	// the address: the state is kept only when it is one of the list's.
	const origin = new URL(page.url()).origin;
	const asState = await page.request.post('/rep?/search', {
		form: { q: '372-51-8806', state: '372-51-8806' },
		headers: { origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(asState.status()).toBe(303);
	expect(asState.headers().location).toBe('/rep?refused=ssn');
	const inAddress = await page.request.get('/rep?q=372-51-8806&state=372-51-8806', {
		maxRedirects: 0
	});
	expect(inAddress.headers().location).toBe('/rep?refused=ssn');
	const kept = await page.request.post('/rep?/search', {
		form: { q: '372-51-8806', state: 'declined' },
		headers: { origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(kept.headers().location).toBe('/rep?refused=ssn&state=declined');
	// (The box takes 100 characters: the longer search is posted as a client other than the box.)
	const tooLong = await page.request.post('/rep?/search', {
		form: { q: `${'a'.repeat(90)} 3725188061`, state: '' },
		headers: { origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(tooLong.status()).toBe(400);
	const shown = await tooLong.text();
	expect(shown).toContain('The search is too long (at most 100 characters).');
	expect(shown).toContain(`value="${'a'.repeat(90)} "`);
	expect(shown).not.toMatch(/372518806/);

	await page.getByLabel('Search business or owner').fill('Nojs');
	await page.getByLabel('State').selectOption('link_sent');
	await page.getByRole('button', { name: 'Show' }).click();
	await expect(page).toHaveURL(/state=link_sent/);
	await expect(page.getByLabel('Search business or owner')).toHaveValue('Nojs');
	await expect(page.getByLabel('State')).toHaveValue('link_sent');
	await expect(consoleEntry(page, b.id)).toBeVisible();
	await expect(consoleEntry(page, a.id)).toHaveCount(0);
	// The option holds links emailed and links made and not emailed (an earlier test's "…nojs"
	// shop may hold one of those); the emailed one is badged as sent.
	for (const badge of await entries.locator('.badge').allInnerTexts())
		expect(badge).toMatch(/^Link (sent|made)$/);
	await expect(consoleEntry(page, b.id).locator('.badge')).toHaveText('Link sent');

	// Newest first, the demo office's own entries included once the search is cleared.
	await page.getByRole('link', { name: 'Clear' }).click();
	const ids = await page
		.locator('li[data-application]')
		.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-application'))));
	expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
	// The demo office's oldest entry (50004, nine days old) ends the last page (pages of 25).
	expect(ids.length).toBeLessThanOrEqual(25);
	await page.goto('/rep?page=9999');
	const oldest = await page
		.locator('li[data-application]')
		.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-application'))));
	expect(oldest.at(-1)).toBe(50004);

	const bad = await page.goto('/rep?state=everything');
	expect(bad?.status()).toBe(400);
	await expect(page.getByText('That is not one of the states in the list')).toBeVisible();

	// A search refused for a control character is offered again as typed, less that character.
	const nul = await page.goto('/rep?q=Nojs%00%20Beta');
	expect(nul?.status()).toBe(400);
	await expect(page.getByText('The search contains an invisible control character')).toBeVisible();
	const again = page.getByLabel('Search business or owner');
	await expect(again).toHaveValue('Nojs Beta');
	await page.getByRole('button', { name: 'Search again' }).click();
	await expect(consoleEntry(page, b.id)).toBeVisible();
	await expect(consoleEntry(page, a.id)).toHaveCount(0);
});

test('a long list comes in pages of 25, newest first, with the search kept from page to page', async ({
	browser,
	request
}) => {
	// At least 27 match (the helper may make more of the same name: it discards ids a run used).
	const made: TestApplication[] = [];
	for (let i = 0; i < 27; i++) made.push(await newApplication(request, 'Paged'));
	const rep = await repPage(browser, REPS.sam);
	await rep.goto('/rep?q=Paged');
	const items = rep.locator('ul.apps > li');
	await expect(items).toHaveCount(25);
	await expect(items.first()).toHaveAttribute('data-application', String(made.at(-1)!.id));
	const pages = rep.getByRole('navigation', { name: 'Pages of the list' });
	const matching = Number(
		/^1–25 of (\d+)$/.exec((await pages.locator('span').innerText()).trim())![1]
	);
	expect(matching).toBeGreaterThanOrEqual(27);
	const last = Math.ceil(matching / 25);
	await expect(pages.getByRole('link', { name: '← Newer' })).toHaveCount(0);
	await pages.getByRole('link', { name: 'Older →' }).click();
	await expect(rep).toHaveURL(/\/rep\?q=Paged&page=2$/);
	await expect(items).toHaveCount(Math.min(25, matching - 25));
	await expect(pages).toContainText(`26–${Math.min(50, matching)} of ${matching}`);
	// Said to a screen reader as the page shows it: the search's matches, not the office's total.
	await expect(rep.getByRole('status').filter({ hasText: 'shown (page 2 of' })).toHaveText(
		new RegExp(`^26(–\\d+)? of ${matching} shown \\(page 2 of ${last}\\); \\d+ in all\\.$`)
	);
	await expect(rep.getByLabel('Search business or owner')).toHaveValue('Paged');
	await pages.getByRole('link', { name: '← Newer' }).click();
	await expect(rep).toHaveURL(/\/rep\?q=Paged$/);
	await expect(items).toHaveCount(25);
	// A page past the last (an old link) shows the last, oldest first made at its end.
	await rep.goto('/rep?q=Paged&page=9999');
	await expect(rep.getByTestId('past-last')).toHaveText(
		`This list has no page 9999 now, only ${last}: here is the last.`
	);
	await expect(items).toHaveCount(matching - 25 * (last - 1));
	await expect(pages.getByRole('link', { name: 'Older →' })).toHaveCount(0);
	await expect(pages).toContainText(`of ${matching}`);
	// The last page, asked for by its own number, says nothing of the kind.
	await rep.goto(`/rep?q=Paged&page=${last}`);
	await expect(items).toHaveCount(matching - 25 * (last - 1));
	await expect(rep.getByTestId('past-last')).toHaveCount(0);
	// A page that is no number is refused in words.
	const bad = await rep.goto('/rep?page=x');
	expect(bad?.status()).toBe(400);
	await expect(
		rep.getByText('The page must be a whole number from 1 up, such as 2.')
	).toBeVisible();
});

test('a click to another page is followed even when the console refreshes itself meanwhile', async ({
	browser
}) => {
	const page = await repPage(browser, REPS.sam);
	await ready(page);
	// The next page is slow to come (a loaded server): the console's own refresh (every 2 s here)
	// falls while the click is on its way, and must not take its place.
	await page.route('**/rep/password/__data.json**', async (route) => {
		await new Promise((r) => setTimeout(r, 5_000));
		await route.continue();
	});
	await page.getByRole('link', { name: 'Password' }).click();
	await expect(page).toHaveURL(/\/rep\/password$/, { timeout: 15_000 });
	await expect(page.getByRole('heading', { level: 1, name: 'Change your password' })).toBeVisible();
	await page.context().close();
});
