import { expect, test } from '@playwright/test';
import { E2E } from './support/env';
import { createLink, newApplication, resetSandbox, walkTo } from './support/flow';
import { REPS, TABLET, appPath, repPage } from './support/reps';

test.use({ viewport: TABLET });

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

test('a rep of another office gets 404 on every page, file and action of this office', async ({
	browser,
	page,
	request
}) => {
	const app = await newApplication(request, 'Other office');
	const link = await createLink(request, app.id, { email: app.email });
	// A signed one too, so that its certificate and signed copy exist to be refused.
	const signed = await newApplication(request, 'Other office signed');
	await walkTo(await browser.newPage(), request, signed, 'done');
	const alex = await repPage(browser, REPS.alex);
	await expect(alex.getByText('Your office has no applications yet.')).toBeVisible();
	// …and which office the account is for: one made for a mistyped office lists nothing either.
	await expect(alex.getByText('Your account is for office 3300')).toBeVisible();
	expect(await alex.content()).not.toContain(app.business);

	// An application of one's own office under another spelling of its number is no address either.
	const own = await repPage(browser, REPS.sam);
	expect((await own.goto(`/rep/applications/0${app.id}`))?.status()).toBe(404);
	expect((await own.goto(appPath(app.id)))?.status()).toBe(200);
	await own.context().close();

	for (const id of [app.id, signed.id, 50001]) {
		for (const path of [
			appPath(id),
			`${appPath(id)}/certificate.pdf`,
			`${appPath(id)}/signer-certificate.pdf`,
			`${appPath(id)}/signed-copy.pdf`,
			`${appPath(id)}/application.pdf`,
			`${appPath(id)}?done=sent`
		]) {
			const res = await alex.goto(path);
			expect(res?.status(), path).toBe(404);
			await expect(alex.getByText('There is no such application in your office.')).toBeVisible();
			if (!path.endsWith('.pdf')) {
				await expect(
					alex.getByRole('link', { name: 'Back to your office’s applications' })
				).toBeVisible();
			}
		}
		const data = await alex.request.get(`${appPath(id)}/__data.json`);
		expect(await data.text()).not.toContain('Testwell');
		for (const action of ['send', 'copy', 'revoke', 'handOver']) {
			const res = await alex.request.post(`${appPath(id)}?/${action}`, {
				form: { email: 'attacker@example.com', officeId: '1207', applicationId: String(id) },
				headers: { origin: E2E.origin, accept: 'text/html' },
				maxRedirects: 0
			});
			expect(res.status(), `${action} ${id}`).toBe(404);
			const body = await res.text();
			expect(body).not.toContain('/s/');
			expect(body).not.toContain(app.business);
		}
	}

	// Nothing changed: the merchant's link still opens, and no mail went to the attacker.
	expect((await page.goto(link.path))?.status()).toBe(200);
	await page.goto('/dev/mailbox');
	await expect(page.getByText('attacker@example.com')).toHaveCount(0);
	// A rep of this office sees the application as it was.
	const sam = await repPage(browser, REPS.sam);
	await expect(async () => {
		await sam.goto(appPath(app.id));
		await expect(sam.getByText(`A link is out, emailed to ${app.email}`)).toBeVisible({
			timeout: 1_000
		});
	}).toPass({ timeout: 15_000 });
});
