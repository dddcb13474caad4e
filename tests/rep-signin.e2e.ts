import { expect, test } from '@playwright/test';
import { E2E } from './support/env';
import { holdScripts, noScriptContext, ready, rememberSsn } from './support/flow';
import { REPS, TABLET, signIn } from './support/reps';

test.use({ viewport: TABLET });

const GENERIC = 'That email and password don’t match an active rep account.';

async function tryPassword(page: import('@playwright/test').Page, email: string, password: string) {
	await page.goto('/rep/login');
	await ready(page);
	await page.getByLabel('Email').fill(email);
	await page.getByLabel('Password').fill(password);
	await page.getByRole('button', { name: 'Sign in' }).click();
}

const repCookie = async (page: import('@playwright/test').Page) =>
	(await page.context().cookies()).find((c) => c.name === 'rep_session');

test('what a password manager filled in before the page was ready stays, and signs in', async ({
	page
}) => {
	const release = await holdScripts(page);
	await page.goto('/rep/login', { waitUntil: 'commit' });
	await page.getByLabel('Email').fill(REPS.sam.email);
	await page.getByLabel('Password').fill(REPS.sam.password());
	release();
	await ready(page);
	await expect(page.getByLabel('Email')).toHaveValue(REPS.sam.email);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
});

test('every rep page sends a visitor to sign-in, and back after it', async ({ page }) => {
	// The home page is where a rep who has only the portal's address starts.
	await page.goto('/');
	await page.getByRole('link', { name: 'sign in to the rep console' }).click();
	await expect(page).toHaveURL(/\/rep\/login/);
	for (const path of [
		'/rep',
		'/rep/applications/50001',
		'/rep/applications/50001/certificate.pdf',
		'/rep/password'
	]) {
		const res = await page.goto(path);
		expect(res?.status(), path).toBe(200);
		await expect(page).toHaveURL(/\/rep\/login/);
	}
	// An action is reachable without its page: it is guarded too.
	const changed = await page.request.post('/rep/password', {
		form: {
			current: 'x',
			password: 'a long enough pass phrase',
			again: 'a long enough pass phrase'
		},
		headers: { origin: E2E.origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(changed.headers()['location']).toBe('/rep/login?undone=1&next=%2Frep%2Fpassword');
	const post = await page.request.post('/rep/applications/50001?/copy', {
		form: {},
		headers: { origin: E2E.origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(post.status()).toBe(303);
	expect(post.headers()['location']).toBe('/rep/login?undone=1&next=%2Frep%2Fapplications%2F50001');
	// The sign-in page says it was not done, and goes back to the page it was pressed on.
	await page.goto(post.headers()['location']!);
	await expect(page.getByRole('alert')).toContainText(
		'what you last pressed was not done and nothing changed. Sign in again, then do it again.'
	);
	await ready(page);
	await page.getByLabel('Email').fill(REPS.sam.email);
	await page.getByLabel('Password').fill(REPS.sam.password());
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page).toHaveURL(/\/rep\/applications\/50001$/);
	await page.context().clearCookies();

	await page.goto('/rep/applications/50001');
	await page.getByLabel('Email').fill(REPS.sam.email);
	await page.getByLabel('Password').fill(REPS.sam.password());
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page).toHaveURL(/\/rep\/applications\/50001$/);
	await expect(page.getByRole('heading', { level: 1, name: 'Blue Heron Bakery' })).toBeVisible();
});

test('a document’s address, or its link once the session ended, leads through sign-in to its application’s page', async ({
	page
}) => {
	const signInHere = async () => {
		await ready(page);
		await page.getByLabel('Email').fill(REPS.sam.email);
		await page.getByLabel('Password').fill(REPS.sam.password());
		await page.getByRole('button', { name: 'Sign in' }).click();
		await expect(page).toHaveURL(/\/rep\/applications\/50001$/);
		await expect(page.getByRole('heading', { level: 1, name: 'Blue Heron Bakery' })).toBeVisible();
	};
	// A bookmarked document: its application's page after sign-in, not a file downloading under
	// the sign-in form, nor the console's "not found".
	await page.goto('/rep/applications/50001/application.pdf');
	await expect(page).toHaveURL('/rep/login?next=%2Frep%2Fapplications%2F50001');
	await signInHere();
	// The session ends; the page still shows the document's link, which leads to sign-in rather
	// than saving the sign-in page as the file.
	await page.context().clearCookies();
	const files: string[] = [];
	page.on('download', (d) => files.push(d.suggestedFilename()));
	await page
		.getByRole('link', { name: 'The application, as the onboarding service has it now (PDF)' })
		.click();
	await expect(page).toHaveURL('/rep/login?next=%2Frep%2Fapplications%2F50001');
	await signInHere();
	// Signed in, the link downloads the file and the page stays.
	const [file] = await Promise.all([
		page.waitForEvent('download'),
		page
			.getByRole('link', { name: 'The application, as the onboarding service has it now (PDF)' })
			.click()
	]);
	expect(file.suggestedFilename()).toBe('application-50001.pdf');
	expect(files).toEqual(['application-50001.pdf']);
	await expect(page).toHaveURL(/\/rep\/applications\/50001$/);
});

test('sign in, a new session each time; sign out ends it on the server', async ({
	page,
	request
}) => {
	await signIn(page, REPS.sam);
	const first = await repCookie(page);
	expect(first).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/rep' });
	// Signing in again with the old cookie still held (the page redirects a signed-in rep, so
	// post the form as a browser would): a new session, never the one the browser brought.
	const again = await page.request.post('/rep/login', {
		form: { email: REPS.sam.email, password: REPS.sam.password() },
		headers: { origin: E2E.origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(again.status()).toBe(303);
	const second = await repCookie(page);
	expect(second!.value).not.toBe(first!.value);
	await page.goto('/rep');
	await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();

	// The first session ended when the second began: its cookie opens nothing.
	const stale = await request.get('/rep', {
		headers: { cookie: `rep_session=${first!.value}` },
		maxRedirects: 0
	});
	expect(stale.status()).toBe(303);

	// A second tab of the console, on a search.
	const other = await page.context().newPage();
	await other.goto('/rep?q=Bakery');
	await ready(other);

	await page.getByRole('button', { name: 'Sign out' }).click();
	await expect(page).toHaveURL(/\/rep\/login\?signedout=1$/);
	await expect(page.getByText('You are signed out.')).toBeVisible();

	// The other tab's next step within the console says why it is at the sign-in, and the
	// sign-in brings it to the page it asked for.
	const row = other.locator('li[data-application] a').first();
	const wanted = await row.getAttribute('href');
	await row.click();
	await expect(other).toHaveURL(`/rep/login?gone=1&next=${encodeURIComponent(wanted!)}`);
	await expect(other.getByText(/You are no longer signed in on this browser/)).toBeVisible();
	await expect(other.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
	await other.getByLabel('Email').fill(REPS.sam.email);
	await other.getByLabel('Password').fill(REPS.sam.password());
	await other.getByRole('button', { name: 'Sign in' }).click();
	await expect(other).toHaveURL(wanted!);
	await other.close();
	const replay = await request.get('/rep', {
		headers: { cookie: `rep_session=${second!.value}` },
		maxRedirects: 0
	});
	expect(replay.status(), 'the cookie kept from before sign-out opens nothing').toBe(303);
});

test('one message for a wrong password and an unknown email; what was typed stays', async ({
	page
}) => {
	await tryPassword(page, REPS.sam.email, 'not the password, but long');
	await expect(page.getByRole('alert')).toHaveText(GENERIC);
	await expect(page.getByLabel('Email')).toHaveValue(REPS.sam.email);
	await expect(page.getByLabel('Password')).toHaveValue('');
	await tryPassword(page, 'nobody.here@office1207.example', 'not the password, but long');
	await expect(page.getByRole('alert')).toHaveText(GENERIC);
	await expect(page).toHaveURL(/\/rep\/login$/);

	await page.goto('/rep/login');
	await ready(page);
	await page.locator('form').evaluate((f) => f.setAttribute('novalidate', ''));
	// While the answer is on its way the button says so (a password takes a moment to check).
	let release = () => {};
	const held = new Promise<void>((r) => (release = r));
	// The page is on the screen: the next request to its address is the post.
	await page.route(
		(url) => url.pathname === '/rep/login',
		async (route) => {
			await held;
			await route.continue();
		},
		{ times: 1 }
	);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.getByRole('button', { name: 'Checking…' })).toBeDisabled();
	release();
	await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
	await expect(page.getByText('Enter your email.')).toBeVisible();
	await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
	await expect(page.getByText('Enter your password.')).toBeVisible();
	// Not an email at all: said so at the field, not "don't match" (and not counted).
	await page.getByLabel('Email').fill('sam ortiz');
	await page.getByLabel('Password').fill('not the password, but long');
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.getByText('Enter your email address, such as sam@example.com.')).toBeVisible();
	await expect(page.getByLabel('Email')).toHaveValue('sam ortiz');

	// An SSN typed as the email is not sent back, as a page or as the form's data, and is refused
	// at its field: not counted under it, so not kept (the last test file searches for it).
	rememberSsn('318-46-2075');
	for (const accept of ['text/html', 'application/json']) {
		const res = await page.request.post('/rep/login', {
			form: { email: '318-46-2075', password: 'not the password, but long' },
			headers: { origin: new URL(page.url()).origin, accept, 'x-sveltekit-action': 'true' },
			maxRedirects: 0
		});
		const body = await res.text();
		// A page is refused with its status; use:enhance's answer carries it in the action result.
		const status = accept === 'text/html' ? res.status() : JSON.parse(body).status;
		expect(status, accept).toBe(400);
		expect(body, accept).toContain('looks like a Social Security Number, not your email');
		expect(body, accept).not.toMatch(/318.?46.?2075/);
	}
});

test('five wrong passwords lock the account for a while, even against the right one', async ({
	page
}) => {
	// The last two tries before the pause say so, and the fifth that the pause has begun, and
	// for how long: the wait the next try is told, not a second figure.
	const warned = [
		'',
		'',
		' Two more wrong tries, and sign-in pauses for up to 30 minutes.',
		' One more wrong try, and sign-in pauses for up to 30 minutes.',
		/ That was the last try: sign-in is paused now\. Try again in (\d+) minutes\.$/
	];
	let said = '';
	for (let i = 0; i < 5; i++) {
		await tryPassword(page, REPS.riley.email, `wrong password number ${i}`);
		const warning = warned[i]!;
		if (typeof warning === 'string') {
			await expect(page.getByRole('alert')).toHaveText(GENERIC + warning);
		} else {
			await expect(page.getByRole('alert')).toContainText(GENERIC);
			said = warning.exec((await page.getByRole('alert').textContent()) ?? '')?.[1] ?? '';
		}
	}
	// At most 30: the failures count in this window and, when they fill it, in the next (less for
	// a run across a window's edge).
	expect(Number(said)).toBeGreaterThanOrEqual(1);
	expect(Number(said)).toBeLessThanOrEqual(30);
	await tryPassword(page, REPS.riley.email, REPS.riley.password());
	await expect(page.getByRole('alert')).toContainText('Too many sign-in attempts');
	// The same wait, or a minute less when a minute has turned in between.
	const told = Number(
		/try again in (\d+) minutes?/.exec((await page.getByRole('alert').textContent()) ?? '')?.[1]
	);
	expect([Number(said), Number(said) - 1]).toContain(told);
	expect(await repCookie(page)).toBeUndefined();
	// Another rep at the same counter is not locked out with them.
	await signIn(page, REPS.sam);
});

test('a wrong address under /rep, or a sign-in posted as JSON, is answered in the console’s words', async ({
	page,
	request
}) => {
	const res = await page.goto('/rep/nosuch');
	expect(res?.status()).toBe(404);
	await expect(
		page.getByText('There is no page at this address in the rep console.')
	).toBeVisible();
	await expect(page.getByText('Rep console').first()).toBeVisible();
	await expect(page.getByText('ask your sales representative')).toHaveCount(0);
	await expect(page.getByRole('link', { name: 'Sign in to the rep console' })).toBeVisible();
	// Signed in, the same address keeps the rep signed in: their name, and the way back.
	await signIn(page, REPS.sam);
	expect((await page.goto('/rep/applications/50001/nosuch'))?.status()).toBe(404);
	await expect(
		page.getByText('There is no page at this address in the rep console.')
	).toBeVisible();
	await expect(
		page.getByRole('link', { name: 'Back to your office’s applications' })
	).toBeVisible();
	await expect(page.getByRole('link', { name: 'Sign in to the rep console' })).toHaveCount(0);
	await expect(page.getByText(REPS.sam.name).first()).toBeVisible();
	const asJson: Record<string, string> = { 'content-type': 'application/json' };
	for (const type of [asJson, {}] as Record<string, string>[]) {
		const posted = await request.post('/rep/login', {
			headers: { origin: E2E.origin, accept: 'text/html', ...type },
			data: type === asJson ? '{"email":"a@b.example"}' : undefined
		});
		expect(posted.status()).toBe(415);
		const body = await posted.text();
		expect(body).toContain('Forms are accepted only as application/x-www-form-urlencoded');
		expect(body).not.toContain('Something went wrong');
	}
	// A form without its fields (a stale page, a tool) is told what to fill in, in our words.
	const empty = await request.post('/rep/login', {
		headers: { origin: E2E.origin, accept: 'text/html' },
		form: {}
	});
	expect(empty.status()).toBe(400);
	const said = await empty.text();
	expect(said).toContain('Enter your email.');
	expect(said).toContain('Enter your password.');
	expect(said).not.toContain('Invalid key');
});

test('a rep changes their own password: checked, signed out elsewhere, with script and without', async ({
	browser
}) => {
	const rep = REPS.jordan;
	const NEW = 'a pass phrase of my own, long';
	const here = await (
		await browser.newContext({ viewport: { width: 390, height: 844 } })
	).newPage();
	const other = await (await noScriptContext(browser)).newPage();
	await signIn(here, rep);
	await signIn(other, rep);

	await here.getByRole('link', { name: 'Password' }).click();
	await expect(here).toHaveURL(/\/rep\/password$/);
	await expect(here.getByRole('heading', { level: 1, name: 'Change your password' })).toBeVisible();
	await ready(here);
	const change = async (page: typeof here, current: string, password: string, again: string) => {
		await page.getByLabel('Current password').fill(current);
		await page.getByLabel('New password', { exact: true }).fill(password);
		await page.getByLabel('New password again').fill(again);
		await page.getByRole('button', { name: 'Change password' }).click();
	};
	// The current password is checked, and nothing is changed without it; a wrong one is said
	// with the new ones' problem at once, not only once that is fixed.
	await change(here, 'not my password at all', NEW, `${NEW}!`);
	await expect(here.getByText('That is not your current password.')).toBeVisible();
	await expect(
		here.getByText('This is not the same as the new password above. Type both again.')
	).toBeVisible();
	const summary = here.getByRole('alert');
	await expect(summary.locator('p')).toHaveText(
		'Your password was not changed. Please fix the 2 highlighted fields below.'
	);
	// The summary names the fields and links to them, as the signing steps' summaries do.
	await expect(summary.getByRole('link')).toHaveText(['Current password', 'New password again']);
	await summary.getByRole('link', { name: 'Current password' }).click();
	await expect(here).toHaveURL(/\/rep\/password#current$/);
	await expect(here.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
	// No password stays in the fields after an answer, as none comes back without script.
	for (const label of ['Current password', 'New password again']) {
		await expect(here.getByLabel(label)).toHaveValue('');
	}
	// The two new ones must match; the browser's own checks aside, the server says so too.
	await change(here, rep.password(), NEW, `${NEW}!`);
	await expect(
		here.getByText('This is not the same as the new password above. Type both again.')
	).toBeVisible();
	const short = await here.request.post('/rep/password', {
		form: { current: rep.password(), password: 'short', again: 'short' },
		headers: { origin: E2E.origin, accept: 'text/html' }
	});
	expect(short.status()).toBe(400);
	expect(await short.text()).toContain('Use at least 15 characters.');
	const same = await here.request.post('/rep/password', {
		form: { current: rep.password(), password: rep.password(), again: rep.password() },
		headers: { origin: E2E.origin, accept: 'text/html' }
	});
	expect(await same.text()).toContain('That is your current password: choose a new one.');

	await change(here, rep.password(), NEW, NEW);
	await expect(here.getByRole('status')).toContainText(
		'Your password is changed. You are still signed in here; anywhere else you were signed in (another browser, another device) is signed out.'
	);
	// The way on comes next, not the three empty fields again.
	await expect(here.getByLabel('Current password')).toHaveCount(0);
	await expect(here.getByRole('link', { name: 'Change it again' })).toHaveAttribute(
		'href',
		'/rep/password'
	);
	await here.getByRole('link', { name: 'Back to the applications' }).click();
	await expect(here.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
	// The other browser was signed out, and says so.
	await other.goto('/rep');
	await expect(other).toHaveURL(/\/rep\/login\?ended=password/);
	await expect(other.getByRole('status')).toHaveText(
		'Your session ended (because your password was changed since you signed in here). Please sign in again. If you did not change it, tell whoever runs this portal at once.'
	);
	// The old password no longer signs in; the new one does, here without script, where the
	// change back to the first one goes through the same form.
	await tryPassword(other, rep.email, rep.password());
	await expect(other.getByText(GENERIC)).toBeVisible();
	await tryPassword(other, rep.email, NEW);
	await expect(other).toHaveURL(/\/rep$/);
	await other.goto('/rep/password');
	await change(other, NEW, rep.password(), rep.password());
	await expect(other.getByRole('status')).toContainText('Your password is changed.');
	await expect(other).toHaveURL(/\/rep\/password\?changed=1$/);
	// And now it was this browser's session that was elsewhere.
	await here.goto('/rep');
	await expect(here).toHaveURL(/\/rep\/login\?ended=password/);
	await here.context().close();
	await other.context().close();
});

test('a rep whose password the operator set chooses their own before the console opens', async ({
	browser
}) => {
	const rep = REPS.casey;
	const OWN = 'a pass phrase only Casey knows';
	const page = await (
		await browser.newContext({ viewport: { width: 390, height: 844 } })
	).newPage();
	// Sent to sign in from a page of the console, as from a bookmark.
	await page.goto('/rep?q=kayak');
	await expect(page).toHaveURL(/\/rep\/login\?next=%2Frep%3Fq%3Dkayak$/);
	await ready(page);
	await page.getByLabel('Email').fill(rep.email);
	await page.getByLabel('Password').fill(rep.password());
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page).toHaveURL(/\/rep\/password\?next=%2Frep%3Fq%3Dkayak$/);
	await expect(
		page.getByRole('heading', { level: 1, name: 'Choose your own password' })
	).toBeVisible();
	const why =
		'The password you signed in with was set by your portal operator, so it is not yours alone. Choose your own before you go on: type the operator’s as your current password, then yours twice.';
	await expect(page.locator('#why-choose')).toHaveText(why);
	// Nothing else of the console opens meanwhile, nor offers to.
	await expect(page.getByRole('link', { name: 'Applications' })).toHaveCount(0);
	await expect(page.getByRole('link', { name: 'Back to the applications' })).toHaveCount(0);
	await page.goto('/rep/applications/50001');
	await expect(page).toHaveURL(/\/rep\/password\?next=%2Frep%2Fapplications%2F50001$/);
	const action = await page.request.post('/rep?/search', {
		form: { q: 'kayak' },
		headers: { origin: E2E.origin, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(action.status()).toBe(303);
	expect(action.headers().location).toBe('/rep/password');
	// An address that says "changed" does not hide the form while the operator's is still theirs.
	await page.goto('/rep/password?changed=1');
	await expect(page.getByRole('status')).toHaveCount(0);
	await expect(page.getByLabel('Current password')).toBeVisible();

	await page.goto('/rep?q=kayak');
	await ready(page);
	// A refused try keeps saying what to type where.
	await page.getByLabel('Current password').fill('not the operator’s password');
	await page.getByLabel('New password', { exact: true }).fill(OWN);
	await page.getByLabel('New password again').fill(OWN);
	await page.getByRole('button', { name: 'Change password' }).click();
	await expect(page.getByText('That is not your current password.')).toBeVisible();
	await expect(page.locator('#why-choose')).toHaveText(why);
	await page.getByLabel('Current password').fill(rep.password());
	await page.getByLabel('New password', { exact: true }).fill(OWN);
	await page.getByLabel('New password again').fill(OWN);
	await page.getByRole('button', { name: 'Change password' }).click();
	// Straight on to the page the rep signed in for, and the console is theirs.
	await expect(page).toHaveURL(/\/rep\?q=kayak$/);
	await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
	await expect(page.getByRole('link', { name: 'Applications' })).toBeVisible();
	await page.context().close();
});
