import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { E2E } from './support/env';
import {
	TEXT,
	agreeToTerms,
	createLink,
	freshSsn,
	newApplication,
	openLinkAndStart,
	passIdentity,
	receivedDecision,
	rememberSsn,
	replayPost,
	resetSandbox,
	startQuestions,
	waitForDecision,
	fillSignForm,
	AT_TERMS
} from './support/flow';

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

const signerForm = (ssn: string): Record<string, string> => ({
	'section-TermsAndConditions': 'yes',
	'section-PaymentReceipt': 'yes',
	'section-IndividualGuaranty': 'yes',
	'section-NextDayFunding': 'yes',
	firstName: 'Morgan',
	lastName: 'Testwell',
	email: 'morgan@testshop.example',
	notificationEmail: 'morgan@testshop.example',
	ssn
});

test('later steps by URL lead back to the current step', async ({ page, request }) => {
	const app = await newApplication(request, 'Skip url');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);

	for (const later of [
		'/sign/identity',
		'/sign/sign',
		'/sign/done',
		'/sign/done/signed-copy.pdf',
		'/sign/done/certificate.pdf'
	]) {
		const r = await page.goto(later);
		expect(r?.status(), later).toBe(200);
		await expect(page, later).toHaveURL(/\/sign\/terms$/);
	}
	await agreeToTerms(page);
	for (const other of ['/sign/terms', '/sign/sign', '/sign/done']) {
		await page.goto(other);
		await expect(page, other).toHaveURL(/\/sign\/identity$/);
	}
	await passIdentity(page, app.id);
	for (const other of ['/sign/terms', '/sign/identity', '/sign/done']) {
		await page.goto(other);
		await expect(page, other).toHaveURL(/\/sign\/sign$/);
	}
});

test('/sign without a session is a 401 page, not a step', async ({ page }) => {
	for (const p of ['/sign/terms', '/sign/identity', '/sign/sign', '/sign/done']) {
		const r = await page.goto(p);
		expect(r?.status(), p).toBe(401);
		await expect(
			page.getByRole('heading', { level: 1, name: 'Your session has ended' })
		).toBeVisible();
	}
	// A copy's address opened again later (an old tab, a bookmark): the same portal's page, its
	// bar and a heading, the reason below it, and the way on.
	for (const p of ['/sign/done/certificate.pdf', '/sign/done/signed-copy.pdf']) {
		const r = await page.goto(p);
		expect(r?.status(), p).toBe(401);
		await expect(page.locator('header.bar')).toHaveText('Merchant signing');
		await expect(page.getByRole('heading', { level: 1, name: 'Not available' })).toBeVisible();
		await expect(page.locator('main p').first()).toContainText(/\S/);
		await expect(page.getByRole('link', { name: 'portal’s start page' })).toBeVisible();
	}
});

test('replayed posts for later steps change nothing', async ({ page, request }) => {
	const app = await newApplication(request, 'Skip post');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);

	// At terms: an accept, a decline and an identity answer are all sent back to terms.
	const ssn = freshSsn();
	rememberSsn(ssn);
	for (const [action, form] of [
		['/sign/sign?/accept', signerForm(ssn)],
		['/sign/sign?/decline', { ...signerForm(ssn), confirm: 'yes' }],
		['/sign/identity?/start', {}],
		['/sign/identity?/answer', { 'q-1': '1', 'q-2': '1', 'q-3': '1', 'q-4': '1', 'q-5': '1' }]
	] as const) {
		const res = await replayPost(page, action, form);
		expect(res.status(), action).toBe(303);
		expect(res.headers().location, action).toMatch(/\/sign\/terms$/);
	}
	expect(await receivedDecision(request, app.id)).toBeNull();
	const r = await page.goto('/sign/done');
	expect(r?.status()).toBe(200);
	await expect(page).toHaveURL(/\/sign\/terms$/);

	// Consent, then skip the identity questions with a direct accept.
	await agreeToTerms(page);
	const skip = await replayPost(page, '/sign/sign?/accept', signerForm(ssn));
	expect(skip.status()).toBe(303);
	expect(skip.headers().location).toMatch(/\/sign\/identity$/);
	expect(await receivedDecision(request, app.id)).toBeNull();

	// An open question set, then an accept post: still refused.
	await startQuestions(page);
	const skip2 = await replayPost(page, '/sign/sign?/accept', signerForm(ssn));
	expect(skip2.headers().location).toMatch(/\/sign\/identity$/);
	expect(await receivedDecision(request, app.id)).toBeNull();
	await page.goto('/sign/identity');
	await expect(page.locator('fieldset')).toHaveCount(5);
});

test('replaying an earlier step after moving on, or posting after done, changes nothing', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Replay');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);
	const version = await page.locator('input[name="version"]').inputValue();
	await agreeToTerms(page);
	await passIdentity(page, app.id);

	// At sign: the consent and identity posts are sent back to sign.
	for (const [action, form] of [
		['/sign/terms?/consent', { consent: 'yes', version }],
		['/sign/identity?/start', {}],
		['/sign/identity?/answer', { 'q-1': '1' }]
	] as const) {
		const res = await replayPost(page, action, form);
		expect(res.status(), action).toBe(303);
		expect(res.headers().location, action).toMatch(/\/sign\/sign$/);
	}
	await page.goto('/sign/sign');
	await expect(
		page.getByRole('heading', { level: 1, name: 'Sign your application' })
	).toBeVisible();

	const ssn = freshSsn();
	await fillSignForm(page, { ssn });
	await page.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(page.getByRole('heading', { level: 1, name: TEXT.signedTitle })).toBeVisible();
	const first = await waitForDecision(request, app.id);

	// After done: a second accept, a decline and a consent post change nothing.
	const other = freshSsn();
	rememberSsn(other);
	for (const [action, form] of [
		['/sign/sign?/accept', { ...signerForm(other), firstName: 'Someone' }],
		['/sign/sign?/decline', { ...signerForm(other), confirm: 'yes' }],
		['/sign/terms?/consent', { consent: 'yes', version }],
		['/sign/terms?/decline', {}]
	] as const) {
		const res = await replayPost(page, action, form);
		expect(res.status(), action).toBe(303);
		expect(res.headers().location, action).toMatch(/\/sign\/done$/);
	}
	const after = await receivedDecision(request, app.id);
	expect(after?.merchantDecisionId).toBe(first.merchantDecisionId);
	expect(after?.body.IsAccepted).toBe(true);
	expect(after?.body.MerchantFirstName).toBe('Morgan');
	expect(after?.ssnLast4).toBe(ssn.slice(-4));
	await page.goto('/sign/done');
	await expect(page.getByRole('heading', { level: 1, name: TEXT.signedTitle })).toBeVisible();
});

test('a cross-site form post is refused', async ({ page, request }) => {
	const app = await newApplication(request, 'Csrf');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);
	const res = await page.request.post('/sign/terms?/consent', {
		form: { consent: 'yes', version: 'x'.repeat(64) },
		headers: { origin: 'https://evil.example' },
		maxRedirects: 0
	});
	expect(res.status()).toBe(403);
	expect(await res.text()).toBe(
		'This form was sent from a page on another website, so it was refused and nothing was done.'
	);
	// A browser's plain form post gets a page in our words.
	const browserPost = await page.request.post('/sign/terms?/consent', {
		form: { consent: 'yes', version: 'x'.repeat(64) },
		headers: { origin: 'https://evil.example', accept: 'text/html' },
		maxRedirects: 0
	});
	expect(browserPost.status()).toBe(403);
	expect(browserPost.headers()['content-type']).toContain('text/html');
	const refusal = await browserPost.text();
	expect(refusal).toContain('<h1>This form was refused</h1>');
	expect(refusal).toContain('another website, so it was refused and nothing was done.');
	expect(refusal).toContain('open the signing link or the console again');
	// Sent as `use:enhance` sends it, the refusal is an action result the page can show.
	const enhanced = await page.request.post('/sign/terms?/consent', {
		form: { consent: 'yes', version: 'x'.repeat(64) },
		headers: { origin: 'https://evil.example', 'x-sveltekit-action': 'true' },
		maxRedirects: 0
	});
	expect(enhanced.status()).toBe(403);
	expect(await enhanced.json()).toEqual({
		type: 'error',
		status: 403,
		error: {
			message:
				'This form was sent from a page on another website, so it was refused and nothing was done.'
		}
	});
	// Nothing was recorded: the step is still the agreement.
	await page.reload();
	await expect(page).toHaveURL(AT_TERMS);
});

test('a method no page takes is named in our words, with what the address answers', async ({
	request
}) => {
	for (const method of ['PUT', 'DELETE', 'PATCH']) {
		const res = await request.fetch('/verify', { method });
		expect(res.status()).toBe(405);
		expect(res.headers()['allow']).toBe('GET, POST, OPTIONS, HEAD');
		expect(await res.text()).toBe(
			`${method} is not accepted at this address: it answers GET, POST, OPTIONS, HEAD.`
		);
	}
	// A form posted to a page that has none, or without naming one of its forms (the start page's
	// is "?/demo", the console's "?/search"): told so, not that something went wrong, nor that the
	// page is not there.
	for (const [path, status] of [
		['/rep', 404],
		['/sign/review', 405],
		['/', 404],
		['/?/nosuch', 404]
	] as const) {
		const res = await request.post(path, {
			form: { a: 'b' },
			headers: { origin: E2E.origin, accept: 'text/html' },
			maxRedirects: 0
		});
		expect(res.status(), path).toBe(status);
		const body = await res.text();
		expect(body, path).toContain('Nothing was done');
		expect(body, path).toContain(
			status === 405 || path.includes('?/')
				? 'This page has no such form to send'
				: 'did not say which of this page’s forms it came from'
		);
		expect(body, path).not.toContain('Something went wrong');
	}
	// An address that answers GET alone (or POST alone), asked otherwise: kit's "POST method not
	// allowed" in our words.
	for (const [method, path] of [
		['POST', '/healthz'],
		['GET', '/sign/still-here']
	] as const) {
		const res = await request.fetch(path, { method, headers: { origin: E2E.origin } });
		expect(res.status(), path).toBe(405);
		expect(await res.text(), path).toMatch(
			new RegExp(`^${method} is not accepted at this address: it answers [A-Z, ]+\\.$`)
		);
		expect(res.headers()['allow'], path).toBeTruthy();
	}
	// Whatever is sent to an address that answers GET alone, the answer is that 405, and not a
	// form's refusals (its type, its origin): there is no form there.
	for (const [path, headers, data] of [
		['/healthz', { 'content-type': 'application/json' }, '{"check":true}'],
		['/healthz', { 'content-type': 'text/plain', origin: 'https://elsewhere.example' }, 'hi'],
		['/sign/done/certificate.pdf', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=b']
	] as const) {
		const res = await request.post(path, { headers, data, maxRedirects: 0 });
		expect(res.status(), path).toBe(405);
		expect(res.headers()['allow'], path).toBe('GET, HEAD');
		expect(await res.text(), path).toBe(
			'POST is not accepted at this address: it answers GET, HEAD.'
		);
	}
	// A form sent compressed is refused as such, not read as if it were not.
	const gzipped = await request.post('/sign/terms?/consent', {
		headers: {
			origin: E2E.origin,
			'content-type': 'application/x-www-form-urlencoded',
			'content-encoding': 'gzip'
		},
		data: gzipSync('consent=on'),
		maxRedirects: 0
	});
	expect(gzipped.status()).toBe(415);
	expect(await gzipped.text()).toContain('Send the form uncompressed.');
	// The operator API keeps its own JSON answer.
	const api = await request.fetch('/api/v1/offices/1207/applications/50001/signing-links', {
		method: 'PUT'
	});
	expect(api.status()).toBe(405);
	expect(await api.json()).toEqual({ message: 'PUT is not allowed here; use POST.' });
});

test('a form opened on another loopback name than the one printed still posts', async ({
	page,
	request
}) => {
	// The e2e server's ORIGIN is http://127.0.0.1:<port>; open the link on localhost instead.
	const app = await newApplication(request, 'Loopback');
	const { path } = await createLink(request, app.id);
	const base = new URL(test.info().project.use.baseURL!);
	await openLinkAndStart(page, `http://localhost:${base.port}${path}`);
	await agreeToTerms(page);
	await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/sign\/identity$/);
});
