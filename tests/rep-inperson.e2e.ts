// In person, on a rep's tablet: the hand-over, the tablet locked to one application's signing
// (by URL, Back, reload or a cleared cookie), the lock screen and its unlock, "Return to rep"
// and a later hand-over, the idle lock (a second server with a short limit), and the evidence.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { check } from './support/a11y';
import { E2E } from './support/env';
import {
	DEMO,
	agreeToTerms,
	answerQuestions,
	createLink,
	fillSignForm,
	freshSsn,
	newApplication,
	noScriptContext,
	openLinkAndStart,
	passIdentity,
	postLink,
	ready,
	replayPost,
	resetSandbox,
	setTimeLimit,
	startQuestions,
	TEXT
} from './support/flow';
import {
	REPS,
	SEND_LINK,
	TABLET,
	appPath,
	handOver,
	leftInBackground,
	repPage,
	signIn
} from './support/reps';
import { startSecondServer } from './support/second-server';

test.use({ viewport: TABLET });

const LOCK_TITLE = 'Please hand this device back to your sales representative';

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

async function expectLocked(page: Page) {
	await expect(page).toHaveURL(/\/rep\/lock$/);
	await expect(page.getByRole('heading', { level: 1, name: LOCK_TITLE })).toBeVisible();
}

async function unlock(page: Page, password: string) {
	await ready(page);
	await page.getByLabel('Password').fill(password);
	await page.getByRole('button', { name: 'Unlock' }).click();
}

test('a full in-person signing: the console is out of reach until the rep unlocks', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'In person');
	const other = await newApplication(request, 'In person other');
	const tablet = await repPage(browser, REPS.sam);

	// The attestation is checked on the server too, in our words.
	const refused = await tablet.request.post(`${appPath(app.id)}?/handOver`, {
		form: { idType: 'Passport', idLast4: '12-4' },
		headers: { origin: E2E.origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(refused.status()).toBe(400);
	const body = await refused.text();
	expect(body).toContain('Tick “I have checked the signer’s photo ID”');
	expect(body).toContain('letters and digits only');
	expect(body).toContain('Nothing was handed over. Please fix the 2 highlighted fields below.');
	// A whole ID number is not written back into the page.
	const whole = await tablet.request.post(`${appPath(app.id)}?/handOver`, {
		form: { photoIdChecked: 'on', idLast4: '12345678' },
		headers: { origin: E2E.origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(whole.status()).toBe(400);
	expect(await whole.text()).not.toContain('12345678');

	// A whole ID number typed where its last four go is refused, not cut to its first four (which
	// the trail would record as the last four).
	await tablet.goto(appPath(app.id));
	await ready(tablet);
	await tablet.getByLabel('I have checked the signer’s photo ID').check();
	await tablet.getByLabel('Last four characters of the ID (optional)').fill('12345678');
	await tablet.getByRole('button', { name: 'Hand to merchant' }).click();
	await expect(
		tablet.getByText('Type only the last four characters of the ID number')
	).toBeVisible();
	await expect(tablet).toHaveURL(new RegExp(`${appPath(app.id)}`));

	// A control character pasted into the ID type is refused before the action runs: said at the
	// hand-over form, beside its field, with what was typed still there (on a page fresh from the
	// server, as the first post it sends).
	await tablet.goto(appPath(app.id));
	await ready(tablet);
	await tablet.getByLabel('I have checked the signer’s photo ID').check();
	await tablet.getByLabel('ID type, such as driver’s license (optional)').fill('Passport\u202e');
	await tablet.getByLabel('Last four characters of the ID (optional)').fill('K7Q2');
	await tablet.getByRole('button', { name: 'Hand to merchant' }).click();
	const handOverForm = tablet.locator('form[action="?/handOver"]');
	await expect(handOverForm.getByRole('alert')).toContainText(
		'invisible control characters, which can’t be accepted'
	);
	await expect(handOverForm.locator('#id-type-error')).toContainText(
		'This contains an invisible control character'
	);
	await expect(tablet.getByLabel('Last four characters of the ID (optional)')).toHaveValue('K7Q2');
	await expect(tablet.getByLabel('ID type, such as driver’s license (optional)')).toHaveValue(
		'Passport\u202e'
	);
	await expect(tablet.getByLabel('I have checked the signer’s photo ID')).toBeChecked();
	await expect(tablet).toHaveURL(new RegExp(`${appPath(app.id)}`));

	await handOver(tablet, app.id, { type: 'Driver’s license', last4: 'K7Q2' });
	await expect(tablet).toHaveURL(/\/sign\/terms$/);
	await expect(tablet.getByText(app.business).first()).toBeVisible();
	// For help the merchant hands the tablet back to the rep beside them: no mail or phone of the
	// rep's to open on the rep's own device.
	const help = tablet.locator('aside.help');
	await expect(help).toContainText(
		'Your sales representative is the person from your sales office who handed you this device: hand it back to them with any question.'
	);
	await expect(help.locator('a[href^="mailto:"], a[href^="tel:"]')).toHaveCount(0);

	// Any rep address, another application (its page or its signing link), the home page, the
	// verify page, the dev mailbox (its links), Back and reload: only the signing step.
	const otherLink = (await createLink(request, other.id)).path;
	for (const path of [
		'/rep',
		appPath(other.id),
		appPath(app.id),
		'/rep/login',
		'/rep/lock',
		'/',
		otherLink,
		'/verify',
		'/dev/mailbox'
	]) {
		await tablet.goto(path);
		await expect(tablet, path).toHaveURL(/\/sign\/terms$/);
	}
	// The machines' own addresses answer as ever: they carry their own keys.
	expect((await tablet.request.get('/healthz')).status()).toBe(200);
	// The signing link the tablet was sent away from still works on the merchant's own device.
	expect((await request.get(otherLink)).status()).toBe(200);
	await tablet.goBack();
	await expect(tablet).toHaveURL(/\/sign\/terms$/);
	await tablet.reload();
	await expect(tablet).toHaveURL(/\/sign\/terms$/);
	// Sent on by no cache: a kept 303 would be replayed by Back once the hand-over changed.
	const sent = await tablet.request.get('/rep', { maxRedirects: 0 });
	expect(sent.headers()['location']).toBe('/sign/terms');
	expect(sent.headers()['cache-control']).toBe('no-store');
	// Sign-out is a rep address too.
	const out = await tablet.request.post('/rep/logout', {
		headers: { origin: E2E.origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(out.headers()['location']).toBe('/sign/terms');

	// Clearing one cookie changes nothing: each of the others still leads to the hand-over.
	const context = tablet.context();
	for (const name of ['rep_session', 'signing_session', 'tablet']) {
		const saved = (await context.cookies()).filter((c) => c.name === name);
		expect(saved, name).toHaveLength(1);
		await context.clearCookies({ name });
		await tablet.goto('/rep');
		await expect(tablet, `without ${name}`).toHaveURL(/\/sign\/terms$/);
		await expect(tablet.getByLabel(TEXT.consent)).toBeVisible();
		// The others come back as they were; the tablet's own the portal gave again, a new key
		// (the old one opens nothing now).
		if (name === 'tablet') {
			const again = (await context.cookies()).filter((c) => c.name === name);
			expect(again).toHaveLength(1);
			expect(again[0]!.value).not.toBe(saved[0]!.value);
		} else {
			await context.addCookies(saved);
		}
	}

	// The merchant walks the same steps as with a link.
	await agreeToTerms(tablet);
	await passIdentity(tablet, app.id);
	await fillSignForm(tablet, { ssn: freshSsn() });
	await tablet.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(tablet).toHaveURL(/\/sign\/done$/);
	await expect(tablet.getByRole('heading', { level: 1, name: TEXT.signedTitle })).toBeVisible();
	await expect(tablet.getByText(LOCK_TITLE + '.')).toBeVisible();
	await expect(
		tablet.getByText(
			'For copies of the signed application and the certificate of completion, ask them: they can download both from their console and pass them on.'
		)
	).toBeVisible();
	await expect(tablet.getByRole('link', { name: /Download/ })).toHaveCount(0);

	// Finished: from now on only the lock screen, whatever is typed or pressed.
	for (const path of [
		'/rep',
		appPath(app.id),
		'/sign/done',
		'/sign/done/certificate.pdf',
		'/',
		'/dev/mailbox'
	]) {
		await tablet.goto(path).catch(() => undefined);
		await expectLocked(tablet);
	}
	await tablet.goBack();
	await expectLocked(tablet);
	expect(await tablet.content()).not.toContain(app.business);
	await expect(tablet.getByText('The signing is finished. Thank you!')).toBeVisible();
	await expect(tablet.locator('#questions-open')).toHaveCount(0);

	// A control character (pasted) is refused before the action runs: said there too.
	await unlock(tablet, `${REPS.sam.password()}\u202e`);
	await expect(tablet.getByRole('alert')).toContainText('invisible control characters');
	await expectLocked(tablet);
	await unlock(tablet, 'not the password at all');
	await expect(tablet.getByRole('alert')).toContainText('That password is not right');
	await expectLocked(tablet);
	await unlock(tablet, REPS.sam.password());
	await expect(tablet).toHaveURL(new RegExp(`${appPath(app.id)}(\\?done=unlocked)?$`));
	await expect(tablet.getByText('The tablet is yours again.')).toBeVisible();
	// The timeline names the rep, and the merchant on the rep's device: never an account's id.
	const trail = tablet.locator('ol.timeline');
	await expect(trail).toContainText('Sam Ortiz (rep 31)');
	await expect(trail).toContainText('Merchant, on the device of Sam Ortiz (rep 31)');
	expect(await trail.textContent()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
	// …and how the session started, and when the device left the merchant and came back.
	await expect(trail).toContainText('In person; photo ID checked: Driver’s license ending K7Q2');
	const lockedEntry = trail.locator('li').filter({ hasText: 'Rep’s device locked' });
	await expect(lockedEntry).toHaveCount(1);
	await expect(lockedEntry).toContainText('After the decision');
	await expect(lockedEntry).toContainText('Portal');
	const unlockedEntry = trail.locator('li').filter({ hasText: 'Rep’s device unlocked by the rep' });
	await expect(unlockedEntry).toHaveCount(1);
	await expect(unlockedEntry).toContainText('Sam Ortiz (rep 31)');
	// The tablet's done page offered no download: the merchant was sent to the rep for copies.
	await expect(
		tablet.getByText(
			'The merchant decided on a rep’s tablet, which offers no download: they were told to ask you for their copies: the signed copy and the signer’s copy of the certificate.'
		)
	).toBeVisible();
	// Unlocked, the lock screen is not left in the tab's history: Back does not come to it.
	await tablet.goBack();
	await expect(tablet).not.toHaveURL(/\/rep\/lock/);
	await tablet.goto('/rep');
	await expect(tablet).toHaveURL(/\/rep$/);

	// The certificate names the channel, the rep and the attestation.
	await tablet.goto(appPath(app.id));
	const download = tablet.waitForEvent('download');
	await tablet.getByRole('link', { name: /certificate of completion/ }).click();
	const file = resolve(E2E.dir, `in-person-${app.id}.pdf`);
	await (await download).saveAs(file);
	const text = spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' }).stdout.replace(
		/\s+/g,
		' '
	);
	expect(text).toContain('In person, on the rep’s device, with Sam Ortiz, rep no. 31');
	expect(text).toContain('Checked by the rep: Driver’s license ending K7Q2');
	expect(text).toContain(
		'Sam Ortiz (rep 31) started an in-person signing on their device after checking the signer’s photo ID'
	);
	expect(text).toContain(
		'The device locked behind the decision’s confirmation, until the rep’s password.'
	);
	expect(text).toContain('Sam Ortiz (rep 31) unlocked their device with their password.');
});

test('identity confirmed in person: a link made afterwards (the operator API) tells the merchant so and sends them to the rep', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'In person passed');
	const tablet = await repPage(browser, REPS.sam);
	await handOver(tablet, app.id, { type: 'State ID', last4: '4417' });
	await agreeToTerms(tablet);
	await passIdentity(tablet, app.id);
	await tablet.getByRole('button', { name: 'Return to rep' }).click();
	await expectLocked(tablet);
	// The tablet is back, so a link can be made; no link carries a pass made in person.
	const { path } = await createLink(request, app.id, { email: app.email });
	const merchant = await browser.newPage({ viewport: { width: 390, height: 844 } });
	await merchant.goto(path);
	await expect(
		merchant.getByRole('heading', { level: 1, name: 'This link can’t continue' })
	).toBeVisible();
	await expect(merchant.getByRole('alert')).toContainText(
		'Your identity was already confirmed in person, with your sales representative, who checked your photo ID.'
	);
	await expect(merchant.getByRole('button', { name: 'Start' })).toHaveCount(0);
	await merchant.close();
	await tablet.context().close();
	// The console offers no new link, emailed or to copy, that could only be refused: it says why.
	const desk = await repPage(browser, REPS.sam);
	await desk.goto(appPath(app.id));
	await expect(desk.locator('#no-link')).toContainText(
		'Identity was already confirmed in person: no new link can carry it over, so finish the signing in person. A link, emailed or to copy, would stop the merchant at the identity questions.'
	);
	await expect(desk.getByRole('button', { name: SEND_LINK })).toHaveCount(0);
	await expect(desk.getByRole('button', { name: 'Make a link to copy' })).toHaveCount(0);
	// The tablet's session is still open: the next hand-over picks it up at signing, with the
	// photo ID noted before.
	await expect(desk.locator('#h-in-person + form')).toContainText(
		'The merchant picks up where they left off, without the identity questions: their identity is already confirmed.'
	);
	await expect(desk.getByLabel('ID type, such as driver’s license (optional)')).toHaveValue(
		'State ID'
	);
	await expect(desk.getByLabel('Last four characters of the ID (optional)')).toHaveValue('4417');
	await handOver(desk, app.id);
	await expect(desk).toHaveURL(/\/sign\/sign$/);
	// Asked to decline, the merchant at the counter is not told to close the page.
	await desk.goto('/sign/sign?decline');
	await expect(
		desk.getByText(
			'Hand this device back to your sales representative and tell them that you don’t want to go ahead.'
		)
	).toBeVisible();
	await expect(desk.getByText('You can close this page')).toHaveCount(0);
	await desk.context().close();
});

test('"Return to rep" mid-way keeps the merchant’s progress for a later hand-over', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'In person paused');
	const tablet = await repPage(browser, REPS.sam);
	await handOver(tablet, app.id, { type: 'Passport', last4: 'X7Q2' });
	await agreeToTerms(tablet);
	// An answer chosen, kept in the tab for a reload, then the tablet goes back: it is forgotten.
	await startQuestions(tablet);
	await tablet.locator('fieldset').first().getByRole('radio').first().check();
	const keptAnswers = () =>
		tablet.evaluate(
			() => Object.keys(sessionStorage).filter((k) => k.startsWith('identity-answers:')).length
		);
	expect(await keptAnswers()).toBe(1);
	await tablet.getByRole('button', { name: 'Return to rep' }).click();
	await expectLocked(tablet);
	expect(await tablet.content()).not.toContain(app.business);
	// "Paused" does not stop the questions' time: the lock screen says so, and until when.
	const running = tablet.locator('#questions-open');
	await expect(running).toBeVisible();
	expect((await running.textContent())!.replace(/\s+/g, ' ').trim()).toMatch(
		/^The identity questions on this device are still open, and their time runs on while it is locked: unless the merchant answers them by \w+day, \w+ \d+, \d{4} at \d+:\d\d:\d\d [AP]M [\w ]+ Time, that try counts without a pass\./
	);
	// The rep's account beside the password, for a password manager to fill it.
	await expect(tablet.locator('input[autocomplete="username"]')).toHaveValue(REPS.sam.email);
	await expect.poll(keptAnswers).toBe(0);
	await tablet.goto('/sign/identity');
	await expectLocked(tablet);

	await unlock(tablet, REPS.sam.password());
	await expect(tablet).toHaveURL(new RegExp(`${appPath(app.id)}(\\?done=unlocked)?$`));
	await expect(tablet.getByText('The tablet is yours again.')).toBeVisible();
	await expect(tablet.getByText('Paused in person').first()).toBeVisible();
	await expect(tablet.getByText(/Taken back from the merchant at the identity step/)).toContainText(
		/Its identity questions are still open and their time runs on: unless the merchant answers them by .+ \d+:\d\d:\d\d [AP]M [A-Z]+, that try counts without a pass\./
	);
	await expect(tablet.getByText('The merchant picks up where they left off.')).toBeVisible();
	// Beside Send and Copy: a link made now could start no questions while those are open.
	await expect(tablet.locator('#tablet-questions')).toContainText(
		/The identity questions the merchant started on the tablet are still open, until .+ \d+:\d\d:\d\d [AP]M [A-Z]+\./
	);
	await expect(tablet.locator('#tablet-questions')).toContainText(
		'A link made now can’t start questions before then'
	);
	// The timeline says it was handed back on the rep's device, without guessing who pressed.
	await expect(
		tablet.locator('ol.timeline li').filter({ hasText: '“Return to rep” was pressed' })
	).toContainText('On the device of Sam Ortiz (rep 31)');
	// The console's state filter has an option that holds the paused hand-over.
	await tablet.goto(`/rep?state=opened&q=${app.id}`);
	await expect(tablet.getByLabel('State')).toHaveValue('opened');
	await expect(tablet.locator('#state option:checked')).toHaveText(/^Opened or paused \(\d+\)$/);
	await expect(tablet.getByText('Paused in person').first()).toBeVisible();
	await tablet.goto(appPath(app.id));
	// The photo ID noted at the first hand-over is offered again for the next.
	await expect(tablet.getByLabel('ID type, such as driver’s license (optional)')).toHaveValue(
		'Passport'
	);
	await expect(tablet.getByLabel('Last four characters of the ID (optional)')).toHaveValue('X7Q2');

	// Later: the same session goes on at the identity step, not back at the terms.
	await handOver(tablet, app.id);
	await expect(tablet).toHaveURL(/\/sign\/identity$/);
	// The console elsewhere (the rep's own phone, say) sees the merchant on it.
	const desk = await repPage(browser, REPS.riley);
	await desk.goto(appPath(app.id));
	await expect(desk.getByText('In progress in person: identity questions').first()).toBeVisible();
	await tablet.getByRole('button', { name: 'Return to rep' }).click();
	await expectLocked(tablet);
});

test('a hand-over from a page shown before a tablet went to the merchant takes nothing from them unseen', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'In person stale page');
	// A colleague's page, open from before the first tablet was handed over.
	const second = await repPage(browser, REPS.riley);
	await second.goto(appPath(app.id));
	await ready(second);
	await expect(second.getByRole('button', { name: 'Hand to merchant', exact: true })).toBeVisible();
	// Left open in the background, where the console does not refresh itself (on a loaded machine
	// the refresh came before the press, and the page showed the tablet).
	await leftInBackground(second);
	const first = await repPage(browser, REPS.sam);
	await handOver(first, app.id);
	await agreeToTerms(first);

	// Posted as such a page without script posts it (before the field, or from a page that showed
	// another tablet, since taken back): refused, nothing done.
	const stale: Record<string, string>[] = [
		{ photoIdChecked: 'on', shownTablet: 'none' },
		{ photoIdChecked: 'on', shownTablet: '0b5c0000-0000-4000-8000-00000000a001' },
		{ photoIdChecked: 'on', tabletShown: 'no' },
		{ photoIdChecked: 'on' }
	];
	for (const form of stale) {
		const replayed = await replayPost(second, `${appPath(app.id)}?/handOver`, form);
		expect(replayed.status()).toBe(409);
		expect(await replayed.text()).toContain(
			'Nothing was handed over: a tablet went to the merchant for this application after this page was shown.'
		);
	}
	const garbledFields: Record<string, string>[] = [
		{ shownTablet: 'the one on the counter' },
		{ tabletShown: 'maybe' }
	];
	for (const field of garbledFields) {
		const garbled = await replayPost(second, `${appPath(app.id)}?/handOver`, {
			photoIdChecked: 'on',
			...field
		});
		expect(garbled.status()).toBe(400);
		const said = await garbled.text();
		expect(said).toContain('This page is out of date: reload it and try again.');
		// Said above the form, not as a field to fix that is nowhere on it.
		expect(said).not.toContain('highlighted field');
	}
	await second.getByLabel('I have checked the signer’s photo ID').check();
	await second.getByRole('button', { name: 'Hand to merchant', exact: true }).click();
	await expect(second.getByRole('alert')).toContainText(
		'Nothing was handed over: a tablet went to the merchant for this application after this page was shown'
	);
	await expect(second).toHaveURL(new RegExp(`${appPath(app.id)}$`));
	// The page is read again: it shows the tablet, and what a hand-over here does to it.
	await expect(second.getByText(/A tablet is in the merchant’s hands now/)).toBeVisible();
	// The merchant on the first tablet goes on where they were.
	await first.reload();
	await expect(first).toHaveURL(/\/sign\/identity$/);
	await expect(first.getByRole('button', { name: 'Return to rep' })).toBeVisible();

	// Pressed again, knowing (here as a page from before the tablet's id posts it, which said only
	// that it showed one): the signing moves here, and the first tablet locks.
	const knowing = await replayPost(second, `${appPath(app.id)}?/handOver`, {
		photoIdChecked: 'on',
		tabletShown: 'yes'
	});
	expect(knowing.status()).toBe(303);
	expect(knowing.headers()['location']).toBe('/sign/identity');
	await second.goto(appPath(app.id));
	await expect(second).toHaveURL(/\/sign\/identity$/);
	await first.reload();
	await expectLocked(first);
});

test('handed over again on another device: the first tablet locks, and the merchant goes on on the second', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'In person moved');
	const first = await repPage(browser, REPS.sam);
	await handOver(first, app.id);
	await agreeToTerms(first);
	await startQuestions(first);
	// A colleague's device (or the rep's own second one) sees the merchant on the first, and is
	// told what a hand-over there does before it does it.
	const second = await repPage(browser, REPS.riley);
	await second.goto(appPath(app.id));
	await expect(second.getByText('In progress in person: identity questions').first()).toBeVisible();
	await expect(
		second.getByText(/A tablet is in the merchant’s hands now\. Handing over here locks that one/)
	).toBeVisible();
	await expect(second.getByRole('button', { name: 'Hand to merchant here instead' })).toBeVisible();
	// Nor does a link go out beside the tablet: whoever opened it could decline while the merchant
	// signs at the counter. The page says so before anything is pressed.
	await expect(second.locator('#tablet-out')).toContainText(
		'The merchant has the tablet now, so no link can be made'
	);
	// …once: not again as "no usable link" under it.
	await expect(second.getByText('There is no usable link.')).toHaveCount(0);
	// …with nothing to press that could only be refused.
	await expect(second.getByRole('button', { name: SEND_LINK })).toHaveCount(0);
	await expect(second.getByRole('button', { name: 'Make a link to copy' })).toHaveCount(0);
	// A send posted all the same (a page from before the hand-over) is refused, and says why
	// where it was pressed.
	const sent = await replayPost(second, `${appPath(app.id)}?/send`, {
		email: app.email,
		shown: 'none'
	});
	expect(sent.status()).toBe(409);
	expect(await sent.text()).toContain(
		'A tablet is in the merchant’s hands for this application, so no link was made'
	);
	// Nor through the operator API: the rule is the link's, whoever asks for one.
	const api = await postLink(request, app.id, { body: {} });
	expect(api.status()).toBe(409);
	expect(((await api.json()) as { message: string }).message).toMatch(
		/^A rep has handed a tablet to the merchant for this application, to sign in person, so no link was created/
	);
	await handOver(second, app.id);
	await expect(second).toHaveURL(/\/sign\/identity$/);
	// The first tablet no longer goes on with the signing: it shows the lock screen, whatever it
	// opens, and says why.
	await first.reload();
	await expectLocked(first);
	await expect(
		first.getByText('This signing was handed over on another device, and goes on there.')
	).toBeVisible();
	// The questions open on it are the merchant's on the other device now: no notice to hurry here.
	await expect(first.locator('#questions-open')).toHaveCount(0);
	await first.goto('/sign/identity');
	await expectLocked(first);
	await first.goto(appPath(app.id));
	await expectLocked(first);
	// Its own rep's password opens it, to a console that has the merchant on the second tablet.
	await unlock(first, REPS.sam.password());
	await expect(first).toHaveURL(new RegExp(`${appPath(app.id)}(\\?done=unlocked)?$`));
	await expect(first.getByText('In progress in person: identity questions').first()).toBeVisible();
	await expect(
		first.locator('ol.timeline li').filter({
			hasText: 'The signing was handed over on another device'
		})
	).toHaveCount(1);
	// The merchant on the second goes on where they were: the same questions, still open.
	await expect(second.locator('fieldset').first()).toBeVisible();
	await second.getByRole('button', { name: 'Return to rep' }).click();
	await expectLocked(second);
});

test('questions whose time runs out while the tablet is back with the rep: the lock screen and the rep page say the try counted', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'In person lapsed');
	await setTimeLimit(request, 6);
	const tablet = await repPage(browser, REPS.sam);
	await handOver(tablet, app.id);
	await agreeToTerms(tablet);
	await startQuestions(tablet);
	await tablet.getByRole('button', { name: 'Return to rep' }).click();
	await expectLocked(tablet);
	const notice = tablet.locator('#questions-open');
	await expect(notice).toContainText('still open');
	// With script, the page says so once their time is up, without a reload.
	await expect(notice).toHaveText(
		'The identity questions’ time ran out while the device was locked, so that try counts without a pass.',
		{ timeout: 15_000 }
	);
	await unlock(tablet, REPS.sam.password());
	await expect(tablet.getByText(/Taken back from the merchant at the identity step/)).toContainText(
		'A try at the identity questions ended without a pass: 1 of 2 tries is left. One more that ends without a pass locks the questions.'
	);
	await tablet.context().close();
});

test('a decline on the tablet before identity: no link to end, no copies promised, no certificate', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'In person declined early');
	const tablet = await repPage(browser, REPS.sam);
	await tablet.goto(appPath(app.id));
	await expect(tablet.getByRole('button', { name: 'Hand to merchant' })).toBeVisible();
	await expect(tablet.getByText('The link that is out stops working')).toHaveCount(0);
	await handOver(tablet, app.id);
	await ready(tablet);
	await tablet.getByText('I don’t want to sign').click();
	// In person there is no link to stop working.
	await expect(
		tablet.getByText(
			'If you decline, the application stops here and your sales representative is told.'
		)
	).toBeVisible();
	// The rep is at the counter: no call-back number asked for.
	await expect(tablet.locator('#decline-reason-hint')).toHaveText(
		'Your sales representative will read it.'
	);
	await tablet.getByLabel('Reason (optional)').fill('We will think about it');
	await tablet.getByRole('button', { name: 'Decline the application' }).click();
	await expect(tablet).toHaveURL(/\/sign\/done$/);
	await expect(tablet.getByText('You declined the application.')).toBeVisible();
	await expect(tablet.getByText(LOCK_TITLE + '.')).toBeVisible();
	await expect(
		tablet.getByText('They have your decision, with your reason if you gave one.')
	).toBeVisible();
	await expect(tablet.getByText(/signed application|certificate/)).toHaveCount(0);
	// A record for the owner, at their address on the application (the rep checked their ID).
	await expect(tablet.getByText(`A confirmation is on its way to ${app.email}.`)).toBeVisible();

	await tablet.goto(appPath(app.id));
	await expectLocked(tablet);
	await unlock(tablet, REPS.sam.password());
	await expect(tablet).toHaveURL(new RegExp(`${appPath(app.id)}(\\?done=unlocked)?$`));
	await expect(tablet.getByText('The tablet is yours again.')).toBeVisible();
	// The reason under its own heading, once: not again in the state's sentence.
	const where = tablet.locator('section', {
		has: tablet.getByRole('heading', { name: 'Where it stands' })
	});
	await expect(
		where.getByRole('heading', { name: 'The merchant’s reason for declining' })
	).toBeVisible();
	await expect(where.getByText('We will think about it')).toHaveCount(1);
	// The rep's page says why there is no certificate, where it said "once the merchant declines".
	await expect(
		tablet.getByText(
			'No certificate of completion: the merchant declined before their identity was confirmed'
		)
	).toBeVisible();
	await expect(tablet.getByRole('link', { name: /certificate of completion/ })).toHaveCount(0);
	// The service's "Pending Signature" beside "Declined" says why.
	await expect(tablet.locator('dt:has-text("Service status") + dd')).toContainText(
		'Pending Signature (a decline before the identity check stays with the portal'
	);
	const direct = await tablet.request.get(`${appPath(app.id)}/certificate.pdf`);
	expect(direct.status()).toBe(404);
	expect(await direct.text()).not.toContain('has not signed or declined');
	const mailbox = await tablet.context().newPage();
	await mailbox.goto('/dev/mailbox');
	const mail = mailbox
		.locator('article')
		.filter({ hasText: `To ${app.email}` })
		.filter({ hasText: `You declined: ${app.business}` });
	await expect(mail).toHaveCount(1);
	const text = await mail.locator('pre').innerText();
	expect(text).toContain('in person, on your sales representative’s device');
	expect(text).toContain(
		'If you change your mind, ask your sales representative to sign with you again.'
	);
	expect(text).not.toContain('link');
	expect(text).not.toContain('We will think about it');
	await mailbox.close();

	// The merchant changes their mind: a new hand-over starts afresh at the terms, and the
	// console shows the signing under way, no longer the decline.
	await expect(tablet.getByText(/A new link or an in-person signing opens it again/)).toBeVisible();
	await handOver(tablet, app.id);
	await expect(tablet).toHaveURL(/\/sign\/terms$/);
	await expect(tablet.getByLabel(TEXT.consent)).toBeVisible();
	const desk = await repPage(browser, REPS.riley);
	await desk.goto(appPath(app.id));
	await expect(
		desk.getByText('In progress in person: reading the agreement').first()
	).toBeVisible();
	await tablet.getByRole('button', { name: 'Return to rep' }).click();
	await expectLocked(tablet);
	await desk.reload();
	await expect(desk.getByText('Paused in person').first()).toBeVisible();
});

test('identity locked on the tablet: the merchant is told to hand it back, not to contact anyone', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'In person locked');
	const tablet = await repPage(browser, REPS.sam);
	await handOver(tablet, app.id);
	await agreeToTerms(tablet);
	for (let i = 0; i < 2; i++) {
		await startQuestions(tablet);
		await answerQuestions(tablet, app.id, 'wrong');
	}
	const notice = tablet.getByRole('alert').filter({ hasText: TEXT.locked });
	await expect(notice).toContainText(
		/You can try again after .*, with your sales representative\./
	);
	await expect(notice).toContainText(LOCK_TITLE + '.');
	await expect(notice).not.toContainText('contact your sales representative');
});

test('a rep of another office gets 404 for the hand-over; no hand-over, no lock screen', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'In person office');
	const alex = await repPage(browser, REPS.alex);
	const res = await alex.request.post(`${appPath(app.id)}?/handOver`, {
		form: { photoIdChecked: 'on' },
		headers: { origin: E2E.origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(res.status()).toBe(404);
	expect(await res.text()).not.toContain(app.business);
	await alex.goto('/rep/lock');
	await expect(alex).toHaveURL(/\/rep$/);
	await expect(alex.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
});

test('the hand-over form and the lock screen: axe, at phone and tablet size', async ({
	browser,
	request
}) => {
	// Four pages checked at three sizes each: near a minute on a busy machine.
	test.setTimeout(90_000);
	const app = await newApplication(request, 'In person axe');
	const tablet = await repPage(browser, REPS.sam);
	const problems: string[] = [];
	await tablet.goto(appPath(app.id));
	await ready(tablet);
	await tablet.getByRole('heading', { name: 'Start in person' }).scrollIntoViewIfNeeded();
	await check(tablet, 'rep-hand-over', problems);
	await tablet.setViewportSize(TABLET);
	await handOver(tablet, app.id);
	await check(tablet, 'in-person-terms', problems);
	// Meanwhile, on the rep's phone: the longest state label stays inside its card.
	const phone = await repPage(browser, REPS.sam);
	await phone.setViewportSize({ width: 390, height: 844 });
	for (const path of ['/rep', appPath(app.id)]) {
		await phone.goto(path);
		await ready(phone);
		const badge = phone.getByText('In progress in person: reading the agreement').first();
		await expect(badge).toBeVisible();
		const [right, cardRight] = await badge.evaluate((el) => [
			el.getBoundingClientRect().right,
			el.closest('li, .card')!.getBoundingClientRect().right
		]);
		expect(right, `${path}: the badge ends inside its card`).toBeLessThanOrEqual(cardRight);
	}
	await check(phone, 'rep-in-person-state', problems);
	await phone.context().close();
	await tablet.setViewportSize(TABLET);
	await tablet.getByRole('button', { name: 'Return to rep' }).click();
	await expectLocked(tablet);
	await unlock(tablet, 'wrong again');
	await expect(tablet.getByRole('alert')).toBeVisible();
	await check(tablet, 'rep-lock', problems);
	expect(problems).toEqual([]);
});

test('a tablet left with the rep’s cookie alone goes on with the signing, not to a stranger’s page', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'In person cookies cleared');
	const tablet = await repPage(browser, REPS.sam);
	await handOver(tablet, app.id);
	await agreeToTerms(tablet);
	// Two of the three cookies cleared (one alone changes nothing: the first test).
	const context = tablet.context();
	await context.clearCookies({ name: 'signing_session' });
	await context.clearCookies({ name: 'tablet' });
	await tablet.goto('/rep');
	await expect(tablet).toHaveURL(/\/sign\/identity$/);
	await expect(tablet.getByRole('button', { name: 'Start the questions' })).toBeVisible();
	await expect(tablet.getByRole('button', { name: 'Return to rep' })).toBeVisible();
	// Every signing address leads there again, and the lock screen is a tap away.
	await tablet.goto('/sign/terms');
	await expect(tablet).toHaveURL(/\/sign\/identity$/);
	await tablet.getByRole('button', { name: 'Return to rep' }).click();
	await expectLocked(tablet);
	await unlock(tablet, REPS.sam.password());
	await expect(tablet).toHaveURL(new RegExp(`${appPath(app.id)}(\\?done=unlocked)?$`));
});

test('a lock posted with a reason the pages never send still locks the tablet, as Return to rep', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'In person odd lock');
	const tablet = await repPage(browser, REPS.sam);
	await handOver(tablet, app.id);
	const posted = await tablet.request.post('/rep/lock?/lock', {
		form: { reason: 'second' },
		headers: { origin: new URL(tablet.url()).origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(posted.status()).toBe(303);
	expect(posted.headers().location).toBe('/rep/lock');
	await tablet.goto('/sign/terms');
	await expectLocked(tablet);
	await expect(
		tablet.getByText('The signing is paused; what was done so far is kept.')
	).toBeVisible();
});

test('unlocking paused by wrong passwords says what the rep can do meanwhile: the console opens elsewhere', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'In person unlock paused');
	const tablet = await repPage(browser, REPS.sam);
	await handOver(tablet, app.id);
	await tablet.getByRole('button', { name: 'Return to rep' }).click();
	await expectLocked(tablet);
	// The sign-in's number of wrong tries (REP_SIGNIN_MAX_FAILURES, 5), counted for this tablet.
	const answered = () =>
		tablet.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/rep/lock'));
	for (let i = 0; i < 5; i++) {
		await Promise.all([answered(), unlock(tablet, `not the password ${i}`)]);
	}
	await expect(tablet.getByRole('alert')).toContainText('That was the last try');
	// Paused from that try on: no password to type, since a try would only be refused.
	await expect(tablet.getByLabel('Password')).toHaveCount(0);
	await expectLocked(tablet);
	// A try all the same (a client of its own), with the right password: refused, in words.
	const tried = await tablet.request.post('/rep/lock?/unlock', {
		form: { password: REPS.sam.password() },
		headers: { origin: new URL(tablet.url()).origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(tried.status()).toBe(429);
	expect(await tried.text()).toContain('unlocking this device is paused: try again in');
	// Shown again (a reload, the tablet picked up later): the pause is said before any try.
	await tablet.getByRole('link', { name: 'Check again' }).click();
	const paused = tablet.getByRole('alert');
	await expect(paused).toContainText(
		/unlocking this device is paused: try again in \d+ minutes?\./
	);
	await expect(paused).toContainText(
		'Meanwhile you can sign in to your console on another device: the application is there'
	);
	await expect(tablet.getByLabel('Password')).toHaveCount(0);
	await expectLocked(tablet);
	// As it says: the rep's phone opens the console, with the application paused in person.
	const phone = await repPage(browser, REPS.sam);
	await phone.goto(appPath(app.id));
	await expect(phone.getByRole('heading', { level: 1 })).toBeVisible();
	await expect(phone).toHaveURL(new RegExp(`${appPath(app.id)}$`));
	// The trail has each wrong password typed at the tablet, down to the pause.
	const wrong = phone
		.locator('ol.timeline li')
		.filter({ hasText: 'Wrong password at the rep’s device’s lock screen' });
	await expect(wrong).toHaveCount(5);
	await expect(wrong.first()).toContainText('Unlocking paused after too many wrong passwords');
	await expect(wrong.last()).toContainText('4 more tries before unlocking pauses');
	await expect(wrong.first()).toContainText('On the device of Sam');
	await phone.context().close();
});

test('idle: the screen clears and the tablet locks, with script and without', async ({
	browser
}) => {
	// A server of its own, two hand-overs and real idle waits: a loaded machine needs the time.
	test.setTimeout(120_000);
	const server = await startSecondServer('in-person-idle', { IN_PERSON_IDLE_SECONDS: '5' });
	try {
		const rep = REPS.riley;
		const at = (path: string) => `${server.origin}${path}`;
		// With script: the page's timer clears the screen and opens the lock screen.
		const context = await browser.newContext({ viewport: TABLET, baseURL: server.origin });
		const tablet = await context.newPage();
		await signIn(tablet, rep);
		await tablet.goto(at(appPath(DEMO.ordinary)));
		await ready(tablet);
		await tablet.getByLabel('I have checked the signer’s photo ID').check();
		await tablet.getByRole('button', { name: 'Hand to merchant' }).click();
		await expect(tablet).toHaveURL(/\/sign\/terms$/);
		await expectLocked(tablet);
		await expect(tablet.getByText('The screen was cleared after a while')).toBeVisible();
		expect(await tablet.content()).not.toContain('Testwell');
		await unlock(tablet, rep.password());
		await expect(tablet).toHaveURL(/\/rep\/applications\/\d+(\?done=unlocked)?$/);
		await expect(tablet.getByText('The tablet is yours again.')).toBeVisible();
		await expect(
			tablet.locator('ol.timeline li').filter({ hasText: 'No touch for 5 seconds' })
		).toContainText('Portal');

		// Without script: the server counts the idle time itself.
		const plain = await noScriptContext(browser, { viewport: TABLET, baseURL: server.origin });
		const page = await plain.newPage();
		await page.goto(at('/rep/login'));
		await page.getByLabel('Email').fill(rep.email);
		await page.getByLabel('Password').fill(rep.password());
		await page.getByRole('button', { name: 'Sign in' }).click();
		await page.goto(at(appPath(DEMO.ordinary)));
		await page.getByLabel('I have checked the signer’s photo ID').check();
		await page.getByRole('button', { name: 'Hand to merchant' }).click();
		await expect(page).toHaveURL(/\/sign\/(terms|identity)$/);
		// The server's own count: the limit, and the page's and its own touch intervals (6.75 s).
		await page.waitForTimeout(7_500);
		// Before the tablet asks again, the rep's console elsewhere (their phone) already says the
		// merchant has it no more, and why.
		const phone = await browser.newContext({ baseURL: server.origin });
		const elsewhere = await phone.newPage();
		await signIn(elsewhere, rep);
		await elsewhere.goto(at(appPath(DEMO.ordinary)));
		await expect(elsewhere.getByText(/The tablet was left idle at the agreement/)).toBeVisible();
		await expect(elsewhere.getByText('The merchant has the tablet now')).toHaveCount(0);
		await phone.close();
		await page.reload();
		await expectLocked(page);
		await page.goto(at('/rep'));
		await expectLocked(page);
	} finally {
		await server.stop();
	}
});

/** A tablet handed over on a server of its own whose idle limit is `idleSeconds`, at the agreement. */
async function handedOverWithIdle(browser: Browser, name: string, idleSeconds: number) {
	const server = await startSecondServer(name, { IN_PERSON_IDLE_SECONDS: String(idleSeconds) });
	try {
		const context = await browser.newContext({ viewport: TABLET, baseURL: server.origin });
		const tablet = await context.newPage();
		await signIn(tablet, REPS.riley);
		await handOver(tablet, DEMO.ordinary);
		await expect(tablet).toHaveURL(/\/sign\/terms$/);
		return { server, tablet };
	} catch (err) {
		await server.stop();
		throw err;
	}
}

test('a merchant reading the agreement on the tablet, scrolling, is not locked out', async ({
	browser
}) => {
	test.setTimeout(90_000);
	const { server, tablet } = await handedOverWithIdle(browser, 'in-person-reading', 5);
	try {
		// Twice the limit of reading: the page hears every scroll, the server only what it is told.
		const until = Date.now() + 10_000;
		for (let down = true; Date.now() < until; down = !down) {
			await tablet.mouse.wheel(0, down ? 400 : -400);
			await tablet.waitForTimeout(1_000);
		}
		await tablet.getByLabel(/I agree to use electronic records/).check();
		await tablet.getByRole('button', { name: 'Continue' }).click();
		await expect(tablet).toHaveURL(/\/sign\/identity$/);
		await expect(tablet.getByRole('heading', { name: LOCK_TITLE })).toHaveCount(0);
	} finally {
		await server.stop();
	}
});

test('before the idle lock the tablet warns, and a merchant who is there keeps the page', async ({
	browser
}) => {
	test.setTimeout(90_000);
	// Warned a third of the limit before it: at 20 s, locking at 30 s.
	const { server, tablet } = await handedOverWithIdle(browser, 'in-person-warning', 30);
	try {
		const consent = tablet.getByLabel(/I agree to use electronic records/);
		await consent.focus();
		const warning = tablet.getByRole('alertdialog');
		await expect(warning).toContainText(
			/^Still there\? To keep your information safe, this device locks in (10|9) seconds\./,
			{ timeout: 25_000 }
		);
		// Where a screen reader is, so that it is read out.
		await expect(warning).toBeFocused();
		// The seconds count down as they pass.
		await expect(warning).toContainText(/locks in [5-7] seconds\./, { timeout: 5_000 });
		await warning.getByRole('button', { name: 'I’m still here' }).click();
		await expect(warning).toHaveCount(0);
		await expect(consent).toBeFocused();
		// Past the lock's first time: the page is still the merchant's.
		await tablet.waitForTimeout(8_000);
		await expect(tablet.getByRole('heading', { name: LOCK_TITLE })).toHaveCount(0);
		await consent.check();
		await tablet.getByRole('button', { name: 'Continue' }).click();
		await expect(tablet).toHaveURL(/\/sign\/identity$/);
	} finally {
		await server.stop();
	}
});

test('a hand-over ends the application’s emailed link: nobody goes on with it beside the merchant at the counter', async ({
	browser,
	request
}) => {
	// Its rep number has no account here (99): the pages name the rep who took it in person.
	const app = await newApplication(request, 'Link and counter', { repNo: 99 });
	const link = await createLink(request, app.id);
	// Someone with the emailed link has the questions open on a phone.
	const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
	try {
		const p = await phone.newPage();
		await openLinkAndStart(p, link.path);
		await agreeToTerms(p);
		await startQuestions(p);

		const tablet = await repPage(browser, REPS.sam);
		// The rep is told before the hand-over, not after it.
		await tablet.goto(appPath(app.id));
		await expect(tablet.locator('dd').filter({ hasText: /Rep 99\b/ })).toHaveText(
			'Rep 99, who has no active account on this portal'
		);
		await expect(
			tablet.getByText('The link that is out stops working when you hand over')
		).toBeVisible();
		await handOver(tablet, app.id);
		// The phone's session ended with its link, and the link no longer opens.
		await p.reload();
		await expect(p.locator('fieldset')).toHaveCount(0);
		await expect(
			p.getByText(
				/ended when your sales representative began signing this application with you in person/
			)
		).toBeVisible();
		await expect(p.getByText(/Your sales representative: Sam Ortiz/)).toBeVisible();
		expect((await p.goto(link.path))?.status()).toBe(410);
		await expect(
			p.getByText(/This link closed when your sales representative began signing/)
		).toBeVisible();
		await expect(p.getByText(/Your sales representative: Sam Ortiz/)).toBeVisible();
		// The set left open on the phone counts as a try, and is not "open elsewhere".
		await agreeToTerms(tablet);
		await expect(tablet.getByText(/You have 1 of 2\s+tries left/)).toBeVisible();
		// Nor does the tablet open the demo sandbox's answer key to the questions it is about to show.
		await startQuestions(tablet);
		// Typed into its address bar, it leads back to the step the tablet is on, as any address does.
		const key = await tablet.request.get(`/sandbox/_sandbox/answers/latest/${app.id}?office=1207`, {
			maxRedirects: 0
		});
		expect(key.status()).toBe(303);
		expect(key.headers()['location']).toBe('/');
		expect(key.headers()['cache-control']).toBe('no-store');
		await tablet.goto(`/sandbox/_sandbox/answers/latest/${app.id}?office=1207`);
		await expect(tablet).toHaveURL(/\/sign\/identity$/);
		await expect(tablet.getByRole('heading', { level: 1, name: 'Confirm it’s you' })).toBeVisible();
		expect(await tablet.content()).not.toContain('ChoiceID');
		const elsewhere = await request.get(`/sandbox/_sandbox/answers/latest/${app.id}?office=1207`);
		expect(elsewhere.status()).toBe(200);
		// Nor the sandbox's service API: the office's merchants, another merchant's application.
		for (const path of [
			'/sandbox/api/office/1207/application/',
			'/sandbox/api/office/1207/pdf/50001'
		]) {
			const res = await tablet.request.get(path, { maxRedirects: 0 });
			expect(res.status(), path).toBe(303);
			expect(res.headers()['location'], path).toBe('/');
		}
		// A form posted to it is refused in words, on a page in the portal's colours.
		const posted = await tablet.request.post('/sandbox/api/office/1207/application/', {
			headers: { origin: new URL(tablet.url()).origin },
			form: { x: '1' }
		});
		expect(posted.status()).toBe(403);
		expect(await posted.text()).toContain(
			'A device handed to a merchant opens only the signing step.'
		);
		expect((await request.get('/sandbox/api/office/1207/application/')).status()).toBe(200);

		// Signed at the counter: the phone and the link say it is on record, not "if that signing
		// wasn't finished".
		await answerQuestions(tablet, app.id, 'right');
		await expect(tablet).toHaveURL(/\/sign\/sign$/);
		await fillSignForm(tablet, { ssn: freshSsn() });
		await tablet.getByRole('button', { name: 'Accept and sign' }).click();
		await expect(tablet).toHaveURL(/\/sign\/done$/);
		await p.goto('/sign/identity');
		await expect(
			p.getByText(
				'This session has ended, and a decision on this application is already on record.'
			)
		).toBeVisible();
		await expect(p.getByText(/signing wasn’t finished/)).toHaveCount(0);
		expect((await p.goto(link.path))?.status()).toBe(410);
		await expect(p.getByText(/A decision on this application is already on record/)).toBeVisible();
	} finally {
		await phone.close();
	}
});

test('a hand-over takes the console’s other tabs off their pages at once: no office list stays behind', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Other tabs at hand-over');
	const rep = await repPage(browser, REPS.sam);
	const context = rep.context();
	// The list in a tab that is not refreshing itself (in the background), and the password page,
	// which never does: only the hand-over's word moves them.
	const list = await context.newPage();
	await list.goto('/rep');
	await ready(list);
	await leftInBackground(list);
	const password = await context.newPage();
	await password.goto('/rep/password');
	await ready(password);
	// The development mailbox (the sandbox's), which lists other merchants' signing links.
	const mailbox = await context.newPage();
	await mailbox.goto('/dev/mailbox');
	await ready(mailbox);
	await handOver(rep, app.id);
	for (const other of [list, password, mailbox]) {
		await expect(other).toHaveURL(/\/sign\/terms$/, { timeout: 3_000 });
		await expect(other.getByRole('heading', { level: 1 })).not.toHaveText('Applications');
		await expect(other.getByRole('button', { name: 'Return to rep' })).toBeVisible();
	}
	// The tab that handed over went to the signing step itself, once.
	await expect(rep).toHaveURL(/\/sign\/terms$/);
	await context.close();
});
