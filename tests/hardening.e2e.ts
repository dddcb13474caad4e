// What an adversarial probe of the portal found, each as a merchant or an attacker meets it in a
// browser: fixation of the session, a double submit, control characters, a second device.
import { readFileSync, statSync } from 'node:fs';
import { expect, test } from '@playwright/test';
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
	receivedDecision,
	replayPost,
	resetSandbox,
	startQuestions,
	walkTo
} from './support/flow';
import { SESSION_COOKIE } from '../src/lib/server/signing/session';
import { pipelined } from '../src/lib/server/testing/pipelined';
import { REPS, TABLET, appPath, signIn } from './support/reps';

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

const sessionCookie = async (page: import('@playwright/test').Page) =>
	(await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)?.value;

test('the session’s cookie is replaced when identity passes: the old one opens nothing', async ({
	page,
	request,
	browser
}) => {
	const app = await newApplication(request, 'Fixation');
	await walkTo(page, request, app, 'identity');
	const before = await sessionCookie(page);
	expect(before).toBeTruthy();
	await passIdentity(page, app.id);
	const after = await sessionCookie(page);
	expect(after).toBeTruthy();
	expect(after).not.toBe(before);
	await expect(page.getByRole('heading', { level: 1 })).toContainText('Sign');

	// Whoever planted or copied the cookie before identity passed holds nothing now.
	const other = await browser.newContext();
	try {
		await other.addCookies([{ name: SESSION_COOKIE, value: before!, url: `${E2E.origin}/sign` }]);
		const res = await other.request.get('/sign/sign', { maxRedirects: 0 });
		expect(res.status()).toBe(401);
	} finally {
		await other.close();
	}
});

test('pressing Accept twice: both presses end on the done page', async ({ page, request }) => {
	const app = await newApplication(request, 'Double submit');
	await walkTo(page, request, app, 'sign');
	await fillSignForm(page, { ssn: freshSsn(), first: 'Morgan', last: 'Testwell' });
	const form = await page
		.locator('form[action="/sign/sign?/accept"]')
		.evaluate((f) =>
			Object.fromEntries(
				[...new FormData(f as HTMLFormElement).entries()].map(([k, v]) => [k, String(v)])
			)
		);
	// Both presses leave before either is recorded (a slow network, an impatient finger).
	const [first, second] = await Promise.all([
		replayPost(page, '/sign/sign?/accept', form),
		replayPost(page, '/sign/sign?/accept', form)
	]);
	for (const res of [first, second]) {
		expect(res.status(), await res.text()).toBe(303);
		expect(res.headers().location).toBe('/sign/done');
	}
	await page.goto('/sign/done');
	await expect(page.getByRole('heading', { level: 1, name: TEXT.signedTitle })).toBeVisible();
});

test('a control character in a name is refused with the reason beside the field, nothing recorded or logged', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Control character');
	await walkTo(page, request, app, 'sign');
	const marker = `Zqctl${Date.now().toString(36)}`;
	const logFrom = statSync(E2E.log).size;
	await fillSignForm(page, {
		ssn: freshSsn(),
		first: `Da\u0000na`,
		last: marker,
		email: `${marker.toLowerCase()}@blueheron.example`
	});
	await page.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(page.getByRole('alert')).toContainText('invisible control characters');
	await expect(page.locator('#firstName-error')).toContainText('control character');
	// What was typed is still there (the SSN aside, as always).
	await expect(page.getByLabel('Last name')).toHaveValue(marker);
	expect(await receivedDecision(request, app.id)).toBeNull();

	// Without script, the same post is a 400 page that names the field.
	const res = await replayPost(page, '/sign/sign?/accept', {
		firstName: 'Da\u0000na',
		lastName: marker,
		email: 'x@blueheron.example',
		notificationEmail: 'x@blueheron.example',
		ssn: '123-45-6789'
	});
	expect(res.status()).toBe(400);
	const said = await res.text();
	expect(said).toContain('<li>First name: This contains an invisible control character');
	expect(said).not.toContain('firstName');
	await expect(page).toHaveURL(/\/sign\/sign$/);
	const log = readFileSync(E2E.log).subarray(logFrom).toString('utf8');
	expect(log).not.toContain(marker);
	expect(log).not.toContain('Da\u0000na');
});

test('questions open on one device: another device on the same link is told to wait', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Two devices');
	const { path } = await createLink(request, app.id);
	const phone = await browser.newContext();
	const laptop = await browser.newContext();
	try {
		const a = await phone.newPage();
		const b = await laptop.newPage();
		for (const p of [a, b]) {
			await openLinkAndStart(p, path);
			await agreeToTerms(p);
		}
		await startQuestions(a);
		await ready(b);
		await b.getByRole('button', { name: 'Start the questions' }).click();
		await expect(b.getByRole('alert')).toContainText('open in another window or on another device');
		await expect(b.locator('fieldset')).toHaveCount(0);
		// Said once, by the refusal.
		await expect(b.locator('#open-elsewhere')).toHaveCount(0);
		// Opened afresh, the page says so before Start is pressed, and counts the open try apart.
		await b.goto('/sign/identity');
		await expect(b.locator('#open-elsewhere')).toContainText(
			/The questions are open right now in another window or on another device\.\s+Finish them\s+there, or start again here after .+, when their\s+time is up\./
		);
		await expect(
			b.getByText(
				'You have 2 of 2 tries left; if the try open now ends without a pass, 1 will be left.'
			)
		).toBeVisible();
		// The device with the questions sees none of it.
		await expect(a.locator('fieldset')).toHaveCount(5);
		await a.reload();
		await expect(a.locator('#open-elsewhere')).toHaveCount(0);
		// That device passes; the other reloads its refusal's address: no "open in another
		// window" above the page's own news that identity is confirmed.
		await answerQuestions(a, app.id, 'right');
		await expect(a).toHaveURL(/\/sign\/sign$/);
		await b.goto('/sign/identity?refused=busy');
		await expect(
			b.getByRole('heading', { level: 2, name: 'Your identity is already confirmed' })
		).toBeVisible();
		await expect(b.getByText(/open in another window/)).toHaveCount(0);
	} finally {
		await phone.close();
		await laptop.close();
	}
});

test('the link opened again in the same browser goes on with its session: the questions open in the first tab are answered there', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Two tabs');
	const { path } = await createLink(request, app.id);
	const context = await browser.newContext();
	try {
		const a = await context.newPage();
		await openLinkAndStart(a, path);
		await agreeToTerms(a);
		await startQuestions(a);
		// The email's link again, in a second tab: it says how far this browser got, and Continue
		// goes there, with the same questions, rather than starting over.
		const b = await context.newPage();
		await b.goto(path);
		await expect(b.getByText('You already started on this link in this browser')).toContainText(
			'got as far as the identity questions'
		);
		await expect(b.getByRole('button', { name: 'Start' })).toHaveCount(0);
		await ready(b);
		await b.getByRole('button', { name: 'Continue' }).click();
		await expect(b).toHaveURL(/\/sign\/identity$/);
		await expect(b.locator('fieldset')).toHaveCount(5);
		await expect(b.getByText(/open in another window/)).toHaveCount(0);
		// The first tab's answers still count: its session was never replaced.
		await answerQuestions(a, app.id, 'right');
		await expect(a).toHaveURL(/\/sign\/sign$/);
		await b.goto(path);
		await expect(b.getByText('got as far as signing')).toBeVisible();
		// The way to decline from there names the button the page has.
		await expect(b.locator('main')).toContainText('Press Continue, then');
		await expect(b.locator('main')).not.toContainText('Press Start');
		await b.getByRole('button', { name: 'Continue' }).click();
		await expect(b).toHaveURL(/\/sign\/sign$/);
		// Another browser on the same link is none of this: its Start is a session of its own.
		const other = await (await browser.newContext()).newPage();
		await other.goto(path);
		await expect(other.getByText('You already started')).toHaveCount(0);
		await expect(other.getByRole('button', { name: 'Start' })).toBeVisible();
		await other.context().close();
	} finally {
		await context.close();
	}
});

test('an address with a damaged %-escape is answered 400 in words a merchant can act on', async ({
	page
}) => {
	for (const path of ['/s/abc%ffdef', '/s/%00%ff', '/%E0%A4%A']) {
		const res = await page.goto(path);
		expect(res?.status(), path).toBe(400);
		await expect(
			page.getByText('This address is damaged: part of it can’t be read.')
		).toBeVisible();
		await expect(
			page.getByText('Check that you opened the whole link from your email')
		).toBeVisible();
		// Not a fault of the portal's: the heading does not say something went wrong.
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('This address can’t be used');
	}
	// A rep is not sent to a sales representative.
	const res = await page.goto('/rep/%ff');
	expect(res?.status()).toBe(400);
	await expect(
		page.getByText('Check the address, or start again from your office’s applications.')
	).toBeVisible();
	await expect(page.getByText('sales representative')).toHaveCount(0);
});

test('an address that spells its letters as %XX goes to its plain form, or is refused: no check is passed by', async ({
	page,
	request
}) => {
	const res = await page.goto('/v%65rify');
	expect(res?.status()).toBe(200);
	expect(new URL(page.url()).pathname).toBe('/verify');
	// The operator API's content-type check read the path as sent, SvelteKit the decoded one.
	const api = await request.post(`/%61pi/v1/offices/1207/applications/50001/signing-links`, {
		headers: { authorization: `Bearer ${E2E.operatorKey}`, 'content-type': 'application/xml' },
		data: '{}',
		maxRedirects: 0
	});
	expect(api.status()).toBe(400);
	expect(await api.json()).toMatchObject({
		message: expect.stringContaining(
			'Send the request to /api/v1/offices/1207/applications/50001/signing-links'
		)
	});
});

test('an SSN typed where the record keeps text is refused at its field, never a 500, never shown back', async ({
	browser,
	request
}) => {
	// The trail refuses to record anything SSN-shaped; the forms used to let it through to there,
	// and the request ended in "Something went wrong".
	for (const js of [true, false]) {
		const context = js
			? await browser.newContext({ viewport: TABLET })
			: await noScriptContext(browser, { viewport: TABLET });
		const rep = await context.newPage();
		await signIn(rep, REPS.sam);
		const app = await newApplication(request, 'SSN elsewhere');

		await rep.goto(appPath(app.id));
		await ready(rep);
		await rep.getByLabel('I have checked the signer’s photo ID').check();
		await rep
			.getByLabel('ID type, such as driver’s license (optional)')
			.fill('NY license 587314926');
		await rep.getByRole('button', { name: 'Hand to merchant' }).click();
		await expect(
			rep.getByText(/Leave numbers that look like an SSN out of the ID type/)
		).toBeVisible();
		expect(await rep.content()).not.toContain('587314926');
		if (!js)
			await expect(rep.getByLabel('ID type, such as driver’s license (optional)')).toHaveValue(
				'NY license '
			);

		await rep.goto(appPath(app.id));
		await ready(rep);
		await rep.getByLabel('Owner’s email').fill('587314926@testshop.example');
		await rep.getByRole('button', { name: /^(Send link|Resend link|Email a new link)$/ }).click();
		await expect(
			rep.getByText(/That address looks like it holds a Social Security Number/)
		).toBeVisible();
		expect(await rep.content()).not.toContain('587314926');
		await context.close();
	}

	const { page } = { page: await (await browser.newContext()).newPage() };
	const app = await newApplication(request, 'SSN in a name');
	await walkTo(page, request, app, 'sign');
	await fillSignForm(page, { ssn: freshSsn(), first: 'Dana 587-31-4926' });
	await page.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(page.locator('#firstName-error')).toContainText(
		'Please leave your Social Security Number out of your first name'
	);
	expect(await receivedDecision(request, app.id)).toBeNull();
	// Without script the page comes back with the field less the number.
	const res = await replayPost(page, '/sign/sign?/accept', {
		firstName: 'Dana',
		lastName: 'Whitfield',
		email: '587-31-4926@blueheron.example',
		notificationEmail: 'x@blueheron.example',
		ssn: freshSsn()
	});
	expect(res.status()).toBe(400);
	const said = await res.text();
	expect(said).toContain('looks like it holds a Social Security Number');
	expect(said).not.toMatch(/587-?31-?4926/);
	await page.context().close();
});

test('a reason sent in another charset than UTF-8, or a form sent as JSON, is refused in words, nothing recorded', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Charset');
	await walkTo(page, request, app, 'sign');
	const headers = { origin: E2E.origin, accept: 'text/html,application/xhtml+xml' };
	// "Frais élevés" in Latin-1, as an old client might send it: read as UTF-8 it is U+FFFD.
	const latin1 = Buffer.concat([
		Buffer.from(
			'confirm=yes&firstName=Dana&lastName=Whitfield&email=d%40x.example&notificationEmail=d%40x.example&ssn=123-45-6789&reason=Frais '
		),
		Buffer.from([0xe9]),
		Buffer.from('lev'),
		Buffer.from([0xe9]),
		Buffer.from('s')
	]);
	const res = await page.request.post('/sign/sign?/decline', {
		data: latin1,
		headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
		maxRedirects: 0
	});
	expect(res.status()).toBe(400);
	const said = await res.text();
	expect(said).toContain('can’t be read');
	expect(said).toContain('<li>Reason: Part of this arrived in a form that can’t be read');
	expect(said).not.toContain('\uFFFD');
	expect(said).not.toContain('6789');

	// A page's form posted as JSON: 415, whether the JSON parses or not.
	for (const body of ['{"confirm":"yes"}', '{"confirm":']) {
		const json = await page.request.post('/sign/sign?/decline', {
			data: body,
			headers: { ...headers, 'content-type': 'application/json' },
			maxRedirects: 0
		});
		expect(json.status(), body).toBe(415);
		expect(await json.text(), body).toContain('Forms are accepted only as');
	}
	expect(await receivedDecision(request, app.id)).toBeNull();
	// The merchant's page is as it was: the sign form, ready.
	await page.reload();
	await expect(page.getByRole('button', { name: 'Accept and sign' })).toBeVisible();
});

test('an address or cookies too long for the server to read are answered in words, not an empty page', async () => {
	// Node refuses them before the app sees them (src/lib/server/http/client-error.js).
	const got = await pipelined(
		E2E.port,
		[`GET /rep?q=${'a'.repeat(40_000)} HTTP/1.1\r\nHost: 127.0.0.1:${E2E.port}\r\n\r\n`],
		(text) => text.includes('try again.'),
		15_000
	);
	expect(got).toMatch(/^HTTP\/1\.1 431 /);
	expect(got).toContain(
		'The address, or the cookies or other headers sent with it, are too long for this portal to read, so nothing was done.'
	);
});

test('a large body the portal answers without reading leaves its connection working: the next request on it is answered', async () => {
	// A post to a path the portal redirects (its trailing slash) is answered before its body is
	// read; the rest of the body used to stop the connection, and a client sending its next
	// request on it waited for ever (src/lib/server/http/drain.js).
	const size = 300_000;
	const got = await pipelined(
		E2E.port,
		[
			`POST /rep/applications/?/send HTTP/1.1\r\nHost: 127.0.0.1:${E2E.port}\r\n` +
				`Origin: ${E2E.origin}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
				`Content-Length: ${size}\r\n\r\nnote=${'x'.repeat(size - 5)}`,
			`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${E2E.port}\r\n\r\n`
		],
		(text) => /HTTP\/1\.1 200 [\s\S]*\r\n\r\n[\s\S]*\}/.test(text),
		15_000
	);
	expect(got).toMatch(/^HTTP\/1\.1 308 /);
	expect(got).toContain('location: /rep/applications?/send');
	expect(got, 'the request after the unread body is answered').toMatch(/HTTP\/1\.1 200 OK/);
});
