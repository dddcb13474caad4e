// Mail off: a portal in front of a real service (here the shared run's sandbox) without SMTP_URL
// sends nothing and says so; the rep copies a link instead.
import { expect, test } from '@playwright/test';
import { E2E } from './support/env';
import { newApplication, resetSandbox } from './support/flow';
import { REPS, TABLET, appPath, signIn } from './support/reps';
import { startSecondServer, type SecondServer } from './support/second-server';

let server: SecondServer | undefined;

test.beforeAll(async ({ request }) => {
	test.setTimeout(120_000);
	await resetSandbox(request);
	server = await startSecondServer('mail-off-server', {
		ONBOARDING_BASE_URL: `${E2E.origin}/sandbox`
	});
});

test.afterAll(async () => {
	await server?.stop();
});

test('with mail off the console says so and offers copy-link, and no form pretends to send', async ({
	browser,
	request
}) => {
	const app = await newApplication(request, 'Mail off');
	const context = await browser.newContext({ viewport: TABLET, baseURL: server!.origin });
	const rep = await context.newPage();
	// The demo rep exists on embedded defaults only; Riley was added with npm run reps.
	await signIn(rep, REPS.riley);
	await rep.goto(appPath(app.id));
	await expect(
		rep.getByText('Mail is off on this portal (no SMTP server is set up)')
	).toBeVisible();
	await expect(
		rep.getByRole('button', { name: /Send link|Resend link|Email a new link/ })
	).toHaveCount(0);
	await expect(rep.getByLabel('Owner’s email')).toHaveCount(0);

	await rep.getByRole('button', { name: 'Make a link to copy' }).click();
	const url = await rep.getByLabel(/^The new link \(works until /).inputValue();
	expect(url.startsWith(`${server!.origin}/s/`)).toBe(true);
	// A send posted anyway (an old page, a script) is refused in words, and nothing is queued.
	const sent = await rep.request.post(`${appPath(app.id)}?/send`, {
		form: { email: app.email },
		headers: { origin: server!.origin, accept: 'application/json', 'x-sveltekit-action': 'true' }
	});
	expect(await sent.text()).toContain('Mail is off on this portal');
	await rep.goto(appPath(app.id));
	await expect(rep.getByText('made to copy, not emailed')).toBeVisible();
	// No development mailbox off embedded defaults.
	expect((await rep.request.get('/dev/mailbox')).status()).toBe(404);
	await context.close();
});
