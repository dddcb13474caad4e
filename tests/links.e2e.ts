import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { expect, test, type APIResponse, type Page } from '@playwright/test';
import { E2E } from './support/env';
import {
	DEMO,
	TEXT,
	agreeToTerms,
	clearFaults,
	createLink,
	linkExpiringIn,
	linkPath,
	markUsed,
	newApplication,
	openLinkAndStart,
	passIdentity,
	postLink,
	ready,
	resetSandbox,
	setFault,
	walkTo
} from './support/flow';
import { REPS, appPath, repPage } from './support/reps';

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

const MESSAGES = {
	unknown: 'This link isn’t valid',
	expired: 'This link has expired',
	// Replaced by a newer link, in the merchant's mail or in none (made to copy, say).
	replaced: 'This link has been replaced by a newer one. Use the most recent email you received',
	replacedUnsent: 'This link has been replaced by a newer one, which wasn’t emailed',
	// …by one that no longer opens either.
	replacedClosed:
		'This link has been replaced by a newer one, which no longer opens either. Ask your sales representative for a new link if you still want to sign.',
	used: 'A decision on this application is already on record, so this link no longer opens. Your sales representative can tell you where things stand, and send you copies of the documents.',
	declined:
		'This application was declined, so this link no longer opens. If you have changed your mind, ask your sales representative for a new link.'
};

/** The error page of a link: status, its own message, no business name, no Start button. */
async function expectLinkError(
	page: Page,
	path: string,
	status: number,
	message: string,
	business: string
) {
	const res = await page.goto(path);
	expect(res?.status()).toBe(status);
	await expect(page.getByText(message)).toBeVisible();
	await expect(page.getByRole('button', { name: 'Start' })).toHaveCount(0);
	expect(await page.content()).not.toContain(business);
	// The Start post (a replayed form) is refused the same way.
	const post = await page.request.post(`${path}?/start`, {
		form: {},
		headers: { origin: new URL(page.url()).origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(post.status()).toBe(status);
	expect(await post.text()).not.toContain(business);
	expect(post.headers()['set-cookie'] ?? '').not.toContain('signing_session');
}

test.describe('operator API', () => {
	test('201 with url and expiresAt; the link page names the business and changes nothing', async ({
		page,
		request
	}) => {
		const app = await newApplication(request, 'Api');
		const res = await postLink(request, app.id, { body: { email: 'morgan@testshop.example' } });
		expect(res.status()).toBe(201);
		const body = (await res.json()) as { url: string; expiresAt: string; replaced: number };
		expect(body).toMatchObject({ replaced: 0, mail: 'queued' });
		expect(body.url.startsWith(`${E2E.origin}/s/`)).toBe(true);
		expect(body.url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
		const ttl = new Date(body.expiresAt).getTime() - Date.now();
		expect(ttl).toBeGreaterThan(167 * 3_600_000);
		expect(ttl).toBeLessThanOrEqual(168 * 3_600_000);

		// Opening it twice (a mail scanner, then the merchant) changes nothing: Start still works.
		const path = new URL(body.url).pathname;
		for (let i = 0; i < 2; i++) {
			const r = await page.goto(path);
			expect(r?.status()).toBe(200);
			await expect(page.getByRole('heading', { level: 1, name: TEXT.linkHeading })).toBeVisible();
			await expect(page.getByText(app.business).first()).toBeVisible();
		}
		expect(
			(await page.context().cookies()).filter((c) => c.name === 'signing_session')
		).toHaveLength(0);
		await openLinkAndStart(page, path);
		const cookie = (await page.context().cookies()).find((c) => c.name === 'signing_session');
		expect(cookie?.httpOnly).toBe(true);
		expect(cookie?.sameSite).toBe('Strict');
		expect(page.url(), 'the session URL carries no token').not.toContain(path.split('/').pop()!);
	});

	test('an earlier expiresAt is honoured', async ({ request }) => {
		const app = await newApplication(request, 'Api expiry');
		const at = new Date(Date.now() + 3_600_000).toISOString();
		const res = await postLink(request, app.id, { body: { expiresAt: at } });
		expect(res.status()).toBe(201);
		expect(new Date(((await res.json()) as { expiresAt: string }).expiresAt).getTime()).toBe(
			new Date(at).getTime()
		);
	});

	test('401 without or with a wrong key, and nothing is created', async ({ page, request }) => {
		const app = await newApplication(request, 'Api auth');
		const first = await createLink(request, app.id);
		for (const key of [null, 'wrong-key-0123456789abcdefghij', '']) {
			const res = await postLink(request, app.id, { key });
			expect(res.status(), `key ${String(key)}`).toBe(401);
			expect(JSON.stringify(await res.json())).not.toContain('/s/');
		}
		const basic = await request.post(`/api/v1/offices/1207/applications/${app.id}/signing-links`, {
			headers: { authorization: 'Basic ZTJlOmUyZQ==' }
		});
		expect(basic.status()).toBe(401);
		// Without the key, nothing is said of what was sent: a body the portal refuses before the
		// endpoint reads it (malformed, of another type, with a control character) still gets 401.
		const refusedBodies: [string, string][] = [
			['{"email": ', 'application/json'],
			['email=a@b.example', 'application/x-www-form-urlencoded'],
			['{"email": "a\u0000@b.example"}', 'application/json']
		];
		for (const [body, type] of refusedBodies) {
			for (const key of [null, 'wrong-key-0123456789abcdefghij']) {
				const res = await request.post(
					`/api/v1/offices/1207/applications/${app.id}/signing-links`,
					{
						headers: { 'content-type': type, ...(key ? { authorization: `Bearer ${key}` } : {}) },
						data: body
					}
				);
				expect(res.status(), `${type} ${body}, key ${String(key)}`).toBe(401);
				expect(await res.json()).toEqual({ message: 'A valid operator API key is required.' });
			}
		}
		// With it, the same bodies are refused for what they are.
		expect((await postLink(request, app.id, { body: '{"email": ' })).status()).toBe(400);
		// Had any of them created a link, the first would now be revoked.
		const r = await page.goto(first.path);
		expect(r?.status()).toBe(200);
	});

	test('404 for an unknown application or office, naming which', async ({ request }) => {
		const message = async (res: Awaited<ReturnType<typeof postLink>>) => {
			expect(res.status()).toBe(404);
			return ((await res.json()) as { message: string }).message;
		};
		expect(await message(await postLink(request, 59999))).toBe(
			'Office 1207 has no application 59999.'
		);
		expect(await message(await postLink(request, DEMO.ordinary, { officeId: 4242 }))).toBe(
			`Office 4242 has no application ${DEMO.ordinary}.`
		);
		// The service answering 404 to the office's whole list (what a wrong ONBOARDING_BASE_URL
		// gets for every call) is not told as a missing application.
		await setFault(request, 'listapplications', { status: 404 });
		try {
			expect(await message(await postLink(request, DEMO.ordinary))).toMatch(
				/^The Onboarding Service answered 404 to office 1207's list of applications: .*ONBOARDING_BASE_URL/
			);
		} finally {
			await clearFaults(request);
		}
	});

	test('400 with message and errors for bad JSON or fields', async ({ request }) => {
		const app = await newApplication(request, 'Api bad');
		const cases: [string, string | object][] = [
			['malformed JSON', '{"email": '],
			['not an email', { email: 'nope' }],
			['unknown field', { emial: 'morgan@testshop.example' }],
			['expiresAt not a date', { expiresAt: 'tomorrow' }],
			['expiresAt in the past', { expiresAt: new Date(Date.now() - 60_000).toISOString() }],
			[
				'expiresAt beyond 7 days',
				{ expiresAt: new Date(Date.now() + 8 * 86_400_000).toISOString() }
			],
			['an array', '[]']
		];
		for (const [what, body] of cases) {
			const res = await postLink(request, app.id, { body: body as never });
			expect(res.status(), what).toBe(400);
			const json = (await res.json()) as { message?: unknown; errors?: unknown };
			expect(typeof json.message, what).toBe('string');
			expect(json.errors, what).toBeTruthy();
		}
		// Two fields wrong at once: both are named, the date's range too.
		const both = await postLink(request, app.id, {
			body: { email: 'nope', expiresAt: new Date(Date.now() - 60_000).toISOString() }
		});
		expect(both.status()).toBe(400);
		const { errors } = (await both.json()) as { errors: Record<string, string[]> };
		expect(Object.keys(errors).sort()).toEqual(['email', 'expiresAt']);
		expect(errors.expiresAt![0]).toMatch(/^must be in the future/);
		for (const bad of ['abc', '-1', '1.5']) {
			const res = await request.post(`/api/v1/offices/1207/applications/${bad}/signing-links`, {
				headers: { authorization: `Bearer ${E2E.operatorKey}` }
			});
			expect(res.status(), `application id ${bad}`).toBe(400);
		}
	});

	test('415 for a body sent as anything but JSON, or without a type, and the link stays', async ({
		request
	}) => {
		const app = await newApplication(request, 'Api type');
		const first = await createLink(request, app.id);
		for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
			const res = await request.post(linkPath(app.id), {
				headers: { authorization: `Bearer ${E2E.operatorKey}`, 'content-type': type },
				data: '{"email":"morgan@testshop.example"}'
			});
			expect(res.status(), type).toBe(415);
			const json = (await res.json()) as { message: string; errors: Record<string, string[]> };
			expect(json.message).toContain('application/json');
			expect(Object.keys(json.errors)).toEqual(['content-type']);
		}
		// No content-type at all (as Python's requests sends `data=json.dumps(…)`): the server
		// framework reads no body then, and `"replace": false` must not be lost on the way.
		const untyped = await new Promise<{ status: number; body: string }>((done, fail) => {
			const body = '{"email":"morgan@testshop.example","replace":false}';
			const req = httpRequest(
				new URL(linkPath(app.id), E2E.origin),
				{
					method: 'POST',
					headers: {
						authorization: `Bearer ${E2E.operatorKey}`,
						'content-length': Buffer.byteLength(body)
					}
				},
				(res) => {
					let text = '';
					res.on('data', (d: Buffer) => (text += d.toString()));
					res.on('end', () => done({ status: res.statusCode ?? 0, body: text }));
				}
			);
			req.on('error', fail);
			req.end(body);
		});
		expect(untyped.status).toBe(415);
		expect(JSON.parse(untyped.body)).toMatchObject({
			errors: { 'content-type': ['a body without a type is not accepted here'] }
		});
		expect((await request.get(first.path)).status()).toBe(200);
	});

	test('an address under /api/ that is no endpoint, and a body over the limit, answer JSON in our words', async ({
		request
	}) => {
		const typo = await request.post('/api/v1/offices/1207/applications/50001/signing-link', {
			headers: { authorization: `Bearer ${E2E.operatorKey}` }
		});
		expect(typo.status()).toBe(404);
		expect(((await typo.json()) as { message: string }).message).toContain(
			'There is no operator API endpoint at this address'
		);
		const big = await request.post(linkPath(DEMO.ordinary), {
			headers: { authorization: `Bearer ${E2E.operatorKey}`, 'content-type': 'application/json' },
			data: JSON.stringify({ email: 'a@b.example', pad: 'x'.repeat(600 * 1024) })
		});
		expect(big.status()).toBe(413);
		expect(((await big.json()) as { message: string }).message).toBe(
			'What was sent is larger than this portal accepts.'
		);
	});

	test('"replace": false makes a link only where none opens, and leaves that one alone', async ({
		request
	}) => {
		const app = await newApplication(request, 'Api keep');
		const made = await postLink(request, app.id, { body: '{"replace": false}' });
		expect(made.status()).toBe(201);
		const first = new URL(((await made.json()) as { url: string }).url).pathname;
		const kept = await postLink(request, app.id, { body: '{"replace": false}' });
		expect(kept.status()).toBe(409);
		expect(((await kept.json()) as { message: string }).message).toContain('left as it is');
		expect((await request.get(first)).status()).toBe(200);
		const bad = await postLink(request, app.id, { body: '{"replace": "no"}' });
		expect(bad.status()).toBe(400);
		expect(((await bad.json()) as { errors: object }).errors).toEqual({
			replace: ['must be true or false']
		});
		// By default a new link replaces it, and says so.
		const again = await postLink(request, app.id, { body: '{}' });
		expect(await again.json()).toMatchObject({ replaced: 1 });
		expect((await request.get(first)).status()).toBe(410);
		const second = await createLink(request, app.id);
		// The merchant declines on it: a system that keeps links out sends them none after that,
		// and a rep's new link (the default) still can.
		const declined = await request.post(`${second.path}?/decline`, {
			form: { reason: '' },
			headers: { origin: E2E.origin, accept: 'text/html' },
			maxRedirects: 0
		});
		expect(declined.status()).toBe(303);
		const after = await postLink(request, app.id, { body: '{"replace": false}' });
		expect(after.status()).toBe(409);
		expect(((await after.json()) as { message: string }).message).toContain(
			'The merchant declined this application after its last link'
		);
		expect((await postLink(request, app.id, { body: '{}' })).status()).toBe(201);
		expect((await postLink(request, app.id, { body: '{"replace": false}' })).status()).toBe(409);
	});

	test('400 lists every problem of a request at once, each in our words', async ({ request }) => {
		const res = await request.post('/api/v1/offices/0/applications/abc/signing-links', {
			headers: { authorization: `Bearer ${E2E.operatorKey}`, 'content-type': 'application/json' },
			data: JSON.stringify({ email: 'nope', expiresAt: 'tomorrow', emial: 'x', color: 'red' })
		});
		expect(res.status()).toBe(400);
		const json = (await res.json()) as { message: string; errors: Record<string, string[]> };
		expect(json.errors).toEqual({
			officeId: ['must be a positive whole number of at most 9 digits'],
			applicationId: ['must be a positive whole number of at most 9 digits'],
			email: ['must be an email address'],
			expiresAt: ['must be an ISO 8601 date-time with its time zone, such as 2026-12-01T17:00:00Z'],
			emial: ['is not an accepted field'],
			color: ['is not an accepted field']
		});
		expect(JSON.stringify(json)).not.toMatch(/Invalid|Expected|received/);
		// An address the trail would refuse to record is refused here, not with a 500 after.
		const ssn = await request.post('/api/v1/offices/0/applications/abc/signing-links', {
			headers: { authorization: `Bearer ${E2E.operatorKey}`, 'content-type': 'application/json' },
			data: JSON.stringify({ email: '123-45-6789@example.com' })
		});
		expect(ssn.status()).toBe(400);
		const refused = (await ssn.json()) as { errors: Record<string, string[]> };
		expect(refused.errors.email).toEqual([
			'must not hold anything that looks like a Social Security Number'
		]);
		expect(JSON.stringify(refused)).not.toContain('6789');
	});

	test('the README’s curl example creates a link on the port the portal is on', async ({
		request
	}) => {
		const readme = readFileSync('README.md', 'utf8');
		const block = /Creating a link by hand[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)![1]!;
		const dir = mkdtempSync(resolve(tmpdir(), 'readme-'));
		writeFileSync(resolve(dir, 'operator-api-key'), E2E.operatorKey);
		await resetSandbox(request);
		// As a reader does it: the PORTAL line set to the address npm start printed.
		const script = block.replace(/^PORTAL=.*$/m, `PORTAL=${E2E.origin}`);
		const out = execFileSync('bash', ['-c', script], {
			env: { ...process.env, DATA_DIR: dir },
			encoding: 'utf8'
		});
		const body = JSON.parse(out) as { url: string; mail: string };
		expect(body.url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
		expect(body.mail).toBe('queued');
	});

	test('409 for an application the service already has a decision for (50004)', async ({
		request
	}) => {
		const res = await postLink(request, DEMO.decided);
		expect(res.status(), await res.text()).toBe(409);
	});
});

test.describe('link states', () => {
	test('unknown token → 404', async ({ page }) => {
		await expectLinkError(
			page,
			`/s/${randomBytes(32).toString('base64url')}`,
			404,
			MESSAGES.unknown,
			'Test Shop'
		);
		await expectLinkError(page, '/s/short', 404, MESSAGES.unknown, 'Test Shop');
		// Not a dead end: a way on to the start page, as from any address that leads nowhere.
		await page.getByRole('link', { name: 'Go to the portal’s start page' }).click();
		await expect(
			page.getByRole('heading', { level: 1, name: 'Merchant signing portal' })
		).toBeVisible();
		const res = await page.goto('/no-such-page');
		expect(res?.status()).toBe(404);
		await expect(page.getByRole('link', { name: 'Go to the portal’s start page' })).toBeVisible();
		// A signing page opened without a session: what to open, and the same way on.
		const none = await page.goto('/sign/terms');
		expect(none?.status()).toBe(401);
		await expect(
			page.getByText(
				'Your signing session has ended or was never started. Open the link from your email again, or ask your sales representative for a new one.'
			)
		).toBeVisible();
		await expect(page.getByRole('link', { name: 'Go to the portal’s start page' })).toBeVisible();
	});

	test('expired → 410', async ({ page, request }) => {
		const app = await newApplication(request, 'Expired');
		const { path, outlive } = await linkExpiringIn(request, app.id, 2_500);
		const r = await page.goto(path);
		expect(r?.status()).toBe(200);
		await outlive(page);
		await expectLinkError(page, path, 410, MESSAGES.expired, app.business);
	});

	test('revoked by a newer link → 410; the newer one works', async ({ page, request }) => {
		const app = await newApplication(request, 'Revoked');
		const first = await createLink(request, app.id);
		await createLink(request, app.id);
		// The newer link is in no email: the page does not send the merchant to their mail.
		await expectLinkError(page, first.path, 410, MESSAGES.replacedUnsent, app.business);
		const third = await createLink(request, app.id, { email: 'owner@revoked.example' });
		await expectLinkError(page, first.path, 410, MESSAGES.replaced, app.business);
		await openLinkAndStart(page, third.path);
	});

	test('used after a decision → 410, and no new link can be made', async ({ page, request }) => {
		const app = await newApplication(request, 'Used');
		const { link } = await walkTo(page, request, app, 'done');
		await expectLinkError(page, link, 410, MESSAGES.used, app.business);
		// The tab closed after signing: the link's page leads this device back to its copies.
		await page.getByRole('link', { name: 'Your copies are on the confirmation page' }).click();
		await expect(page).toHaveURL(/\/sign\/done$/);
		await expect(page.getByRole('link', { name: /certificate of completion/ })).toBeVisible();
		// Another device holds no session: its link page offers no way to a confirmation page that
		// would only say there is nothing there.
		const other = await page.context().browser()!.newContext();
		try {
			const elsewhere = await other.newPage();
			await elsewhere.goto(link);
			await expect(elsewhere.getByText(MESSAGES.used)).toBeVisible();
			await expect(
				elsewhere.getByRole('link', { name: 'Your copies are on the confirmation page' })
			).toHaveCount(0);
			// Asked for all the same (a bookmark), the confirmation page says there is nothing here,
			// not to open the link again (whose page sent them there).
			await elsewhere.goto('/sign/done');
			await expect(
				elsewhere.getByText(
					/^This device has no signing open, so there are no copies to show here\./
				)
			).toBeVisible();
			await expect(elsewhere.getByText(/Open the link from your email again/)).toHaveCount(0);
		} finally {
			await other.close();
		}
		const again = await postLink(request, app.id);
		expect(again.status()).toBe(409);
	});

	test('used by a decline before identity → 410 that says so, promising no documents; replaced once a newer link is out', async ({
		page,
		request
	}) => {
		const app = await newApplication(request, 'Declined early');
		const { path } = await createLink(request, app.id);
		await page.goto(path);
		await page.getByText('I don’t want to sign').click();
		await page.getByRole('button', { name: 'Decline the application' }).click();
		await expect(page.getByRole('heading', { level: 1, name: TEXT.declinedTitle })).toBeVisible();
		await expectLinkError(page, path, 410, MESSAGES.declined, app.business);
		await expect(page.getByText('copies')).toHaveCount(0);
		// They changed their mind and a new link went out: the old one points to the newer.
		const newer = await createLink(request, app.id);
		await expectLinkError(page, path, 410, MESSAGES.replacedUnsent, app.business);
		await openLinkAndStart(page, newer.path);
		// Declined on that one too: the first link says so, not "use the newer one".
		await page.getByText('I don’t want to sign').click();
		await page.getByRole('button', { name: 'Decline the application' }).click();
		await expect(page.getByRole('heading', { level: 1, name: TEXT.declinedTitle })).toBeVisible();
		await expectLinkError(page, path, 410, MESSAGES.declined, app.business);
		// A third, expired before anyone opened it: none of the three opens, and the first says so.
		const third = await linkExpiringIn(request, app.id, 1_500);
		await third.outlive(page);
		await expectLinkError(page, path, 410, MESSAGES.replacedClosed, app.business);
	});

	test('a browser that keeps no cookie is told so after Start, with script and without, not sent round the link again', async ({
		browser,
		request
	}) => {
		const app = await newApplication(request, 'No cookies');
		const { path } = await createLink(request, app.id);
		for (const javaScriptEnabled of [true, false]) {
			const context = await browser.newContext({ javaScriptEnabled });
			try {
				// Cookies blocked: whatever the portal sets never reaches the browser's jar.
				await context.route('**/*', async (route) => {
					const response = await route.fetch({
						maxRedirects: 0,
						// As the browser sends it: Sec-Fetch-Site is added on the wire, so not here.
						headers: { ...(await route.request().allHeaders()), 'sec-fetch-site': 'same-origin' }
					});
					// route.fetch keeps what it is sent in the context's jar: taken out again.
					await context.clearCookies();
					const headers = { ...response.headers() };
					delete headers['set-cookie'];
					await route.fulfill({ response, headers });
				});
				const page = await context.newPage();
				await page.goto(path);
				if (javaScriptEnabled) await ready(page);
				await page.getByRole('button', { name: 'Start' }).click();
				await expect(
					page.getByRole('heading', { level: 1, name: 'No signing is open in this browser' })
				).toBeVisible();
				await expect(
					page.getByText(
						'If you have just pressed Start, this browser didn’t keep the cookie that holds your place in the signing. Allow cookies for this site'
					)
				).toBeVisible();
				expect(await context.cookies()).toEqual([]);
			} finally {
				// A request still in the handler when the context closes is not an error of the test.
				await context.unrouteAll({ behavior: 'ignoreErrors' });
				await context.close();
			}
		}
	});

	test('a started session is not a way around an expired link', async ({ page, request }) => {
		const app = await newApplication(request, 'Expired start');
		const { path, outlive } = await linkExpiringIn(request, app.id, 2_000);
		await page.goto(path);
		await ready(page);
		await outlive(page);
		await page.getByRole('button', { name: 'Start' }).click();
		await expect(page.getByText(MESSAGES.expired)).toBeVisible();
		await expect(page).not.toHaveURL(/\/sign\//);
	});

	test('a session started in time goes on after its link expires, and the link’s page leads back to it', async ({
		page,
		request
	}) => {
		const app = await newApplication(request, 'Expired midway');
		const { path, outlive } = await linkExpiringIn(request, app.id, 6_000);
		await openLinkAndStart(page, path);
		await agreeToTerms(page);
		await outlive(page);
		// The email's link opened again in this browser: expired, and the way on.
		const res = await page.goto(path);
		expect(res?.status()).toBe(410);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link has expired');
		await expect(
			page.getByText(
				'You started signing with it in this browser before it expired, and can still finish. You have agreed to the terms: the identity questions are next.'
			)
		).toBeVisible();
		await page.getByRole('link', { name: 'Continue where you left off' }).click();
		await expect(page).toHaveURL(/\/sign\/identity$/);
		// Another browser has no session on it: expired, and the signing that is open elsewhere
		// is the way on (a new link would end it).
		const other = await page.context().browser()!.newContext();
		try {
			const elsewhere = await other.newPage();
			await expectLinkError(
				elsewhere,
				path,
				410,
				'Signing with it was started on another device or browser before it expired, and can still be finished there.',
				app.business
			);
			await expect(
				elsewhere.getByRole('link', { name: 'Continue where you left off' })
			).toHaveCount(0);
		} finally {
			await other.close();
		}
	});
});

test('on the sandbox, “Start a demo signing” on the start page opens a new application, with script and without', async ({
	browser,
	request
}) => {
	const ids: number[] = [];
	for (const javaScriptEnabled of [true, false]) {
		const context = await browser.newContext({ javaScriptEnabled });
		const page = await context.newPage();
		await page.goto('/');
		await page.getByRole('button', { name: 'Start a demo signing' }).click();
		await expect(page.getByRole('heading', { level: 1, name: TEXT.linkHeading })).toBeVisible();
		const name = await page
			.getByText(/Blue Heron Bakery \d+/)
			.first()
			.textContent();
		const id = Number(/Blue Heron Bakery (\d+)/.exec(name ?? '')?.[1]);
		markUsed(id);
		ids.push(id);
		await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeVisible();
		if (javaScriptEnabled) {
			// A real application of the sandbox: its questions are asked and answered.
			await ready(page);
			await page.getByRole('button', { name: 'Start' }).click();
			await agreeToTerms(page);
			await passIdentity(page, ids[0]!);
			// The sandbox's reset starts its ids again, and the next demo could take the id of one
			// the portal has records of (this one): the button passes over it.
			await resetSandbox(request);
		}
		await context.close();
	}
	// Each press makes its own, in the demos' range (60001 on), and none the portal already knew.
	expect(ids[0]).toBeGreaterThan(60_000);
	expect(ids[1]).toBeGreaterThan(ids[0]!);
	// The rep console names the link a demo's, not the operator API's.
	const rep = await repPage(browser, REPS.sam);
	await rep.goto(appPath(ids[1]!));
	await expect(rep.getByText(/^A link is out \(a demo link, not emailed\)/)).toBeVisible();
	await expect(rep.locator('.timeline')).toContainText('Start page (demo)');
	await expect(rep.locator('.timeline')).not.toContainText('Operator API');
});

test('“Start a demo signing” makes at most 30 demos an hour from one address, then says so in words on the start page', async ({
	request
}) => {
	// Every demo is a new application kept in the sandbox's tables: pressed in a loop, the button
	// stops making them. (The test above made two from this address.)
	const press = () =>
		request.post('/?/demo', {
			form: {},
			headers: { origin: E2E.origin, accept: 'text/html' },
			maxRedirects: 0
		});
	let made = 0;
	let refused: APIResponse | undefined;
	for (let i = 0; i < 40 && !refused; i++) {
		const res = await press();
		if (res.status() === 303) made++;
		else refused = res;
	}
	expect(made).toBeGreaterThan(0);
	expect(made).toBeLessThanOrEqual(30);
	expect(refused?.status()).toBe(429);
	expect(Number(refused!.headers()['retry-after'])).toBeGreaterThan(0);
	const body = await refused!.text();
	expect(body).toMatch(
		/Too many demos started from your address\. Try again in \d+ minutes?, or go on with one already started\./
	);
	expect(body).not.toContain('Something went wrong');
	// Said on the start page itself, with its links still there.
	expect(body).toContain('Start a demo signing');
	expect(body).toContain('Check a certificate of completion or signed copy');
	// Still refused at once: nothing more was made.
	expect((await press()).status()).toBe(429);
});

test('the demo link `npm start` prints is named a demo link in the console, not the operator API’s', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Start demo');
	// As scripts/start.js asks for it.
	const made = await postLink(request, app.id, {
		body: { replace: false },
		headers: { 'x-portal-demo': 'start' }
	});
	expect(made.status()).toBe(201);
	const rep = await repPage(browser, REPS.sam);
	await rep.goto(appPath(app.id));
	await expect(rep.getByText(/^A link is out \(a demo link, not emailed\)/)).toBeVisible();
	await expect(rep.locator('.timeline')).toContainText('Portal’s start (demo)');
	await expect(rep.locator('.timeline')).toContainText(
		'A demo link, printed when the portal started (not emailed)'
	);
	await expect(rep.locator('.timeline')).not.toContainText('Operator API');
	await rep.context().close();
});
