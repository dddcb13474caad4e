// The mail a merchant gets, as a merchant's phone shows it. The shared server keeps mail in the
// development mailbox; a second server of this file's own sends through a real SMTP server that
// the test runs, and the link is taken from the captured message.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { E2E } from './support/env';
import { smtpPortal } from './support/second-server';
import { TEXT, createLink, newApplication, resetSandbox } from './support/flow';
import { REPS, consoleEntry, signIn } from './support/reps';

const SHOTS = resolve(E2E.dir, 'shots');
const PHONE = { width: 390, height: 844 };
const TABLET = { width: 820, height: 1180 };

/** The email fits a phone: nothing wider than the screen, the button inside it. */
async function expectReadableOnPhone(page: Page, name: string) {
	await page.setViewportSize(PHONE);
	await expect(
		page.getByRole('heading', { level: 1, name: 'Your merchant application is ready to sign' })
	).toBeVisible();
	const width = await page.evaluate(() => document.documentElement.scrollWidth);
	expect(width).toBeLessThanOrEqual(PHONE.width);
	const button = await page.getByRole('link', { name: 'Review and sign' }).boundingBox();
	expect(button).not.toBeNull();
	expect(button!.x).toBeGreaterThanOrEqual(0);
	expect(button!.x + button!.width).toBeLessThanOrEqual(PHONE.width);
	expect(button!.height).toBeGreaterThanOrEqual(44);
	mkdirSync(SHOTS, { recursive: true });
	await page.screenshot({ path: resolve(SHOTS, `${name}-phone.png`), fullPage: true });
	await page.setViewportSize(TABLET);
	await page.screenshot({ path: resolve(SHOTS, `${name}-tablet.png`), fullPage: true });
	await page.setViewportSize(PHONE);
}

test('the link email in the development mailbox reads well on a phone and opens the link', async ({
	page,
	request
}) => {
	await resetSandbox(request);
	const app = await newApplication(request, 'Mailbox');
	const link = await createLink(request, app.id, { email: 'morgan@testshop.example' });
	await page.goto('/dev/mailbox');
	// A way on from it, as from any other page.
	const elsewhere = page.getByRole('navigation', { name: 'Elsewhere in the portal' });
	await expect(elsewhere.getByRole('link', { name: 'Start page' })).toHaveAttribute('href', '/');
	await expect(elsewhere.getByRole('link', { name: 'Rep console' })).toHaveAttribute(
		'href',
		'/rep'
	);
	const card = page.locator('article', { hasText: `Please review and sign: ${app.business}` });
	await expect(card).toHaveCount(1);
	await expect(card).toContainText(link.url);
	// Sent to the address the application gives for its owner: greeted by name.
	await expect(card).toContainText('Hello Morgan Testwell,');
	await expect(card).toContainText(/This link works until .+ Central (Standard|Daylight) Time\./);
	// When it was queued, in the office's time as the console writes it.
	await expect(card.locator('.meta')).toContainText(
		/To morgan@testshop\.example · \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M C[SD]T ·/
	);
	// Who it is from, and where a reply goes: the application's rep, by name in the email.
	await expect(card.locator('.sender')).toHaveText(
		'From Signing portal <no-reply@localhost> · Replies go to sam.ortiz@office1207.example'
	);
	await card.getByRole('link', { name: 'Open the HTML version' }).click();
	await expect(page.getByText(app.business)).toBeVisible();
	await expectReadableOnPhone(page, 'mail-link-mailbox');
	await page.getByRole('link', { name: 'Review and sign' }).click();
	await expect(page).toHaveURL(link.url);
	await expect(page.getByRole('heading', { level: 1, name: TEXT.linkHeading })).toBeVisible();
});

test('a reminder is sent by a clock moved forward, once, and names the business', async ({
	page,
	request
}) => {
	await resetSandbox(request);
	const app = await newApplication(request, 'Reminder');
	const link = await createLink(request, app.id, { email: 'morgan@testshop.example' });
	const run = async (days: number) => {
		const res = await request.post('/dev/reminders', {
			headers: { authorization: `Bearer ${E2E.operatorKey}` },
			data: { at: new Date(Date.now() + days * 86_400_000).toISOString() }
		});
		expect(res.status()).toBe(200);
	};
	const reminders = async () => {
		await page.goto('/dev/mailbox');
		return page.locator('article', {
			hasText: `Reminder: please review and sign: ${app.business}`
		});
	};
	// Not before three days; then exactly one, however often the worker runs.
	await run(2.9);
	await expect(await reminders()).toHaveCount(0);
	await run(3.01);
	await run(3.02);
	const card = await reminders();
	await expect(card).toHaveCount(1);
	await expect(card).toContainText(link.url);
	await expect(card).toContainText('still waiting for your review and signature');
	// Without the operator key, nothing runs.
	const refused = await request.post('/dev/reminders', { data: { at: new Date().toISOString() } });
	expect(refused.status()).toBe(401);
	// Bad bodies are refused in JSON, each naming what is wrong.
	const withKey = (data: string) =>
		request.post('/dev/reminders', {
			headers: { authorization: `Bearer ${E2E.operatorKey}`, 'content-type': 'application/json' },
			data
		});
	const empty = await withKey('{}');
	expect(empty.status()).toBe(400);
	expect(((await empty.json()) as { errors: object }).errors).toEqual({
		at: ['is required: an ISO 8601 date-time such as 2026-12-01T17:00:00Z']
	});
	const broken = await withKey('{"at": ');
	expect(broken.status()).toBe(400);
	expect(broken.headers()['content-type']).toContain('application/json');
	// A year a database timestamp cannot hold (there is no year 0): refused, not a failure.
	const yearZero = await withKey('{"at": "0000-01-01T00:00:00Z"}');
	expect(yearZero.status()).toBe(400);
	expect(((await yearZero.json()) as { errors: object }).errors).toEqual({
		at: ['must be a moment in the years 0001 to 9999 (UTC)']
	});
	// A form (an operator's curl -d) is refused as not JSON, not as a cross-site form; another
	// method gets the API's JSON 405.
	const form = await request.post('/dev/reminders', {
		headers: { authorization: `Bearer ${E2E.operatorKey}` },
		form: { at: '2026' }
	});
	expect(form.status()).toBe(415);
	expect(((await form.json()) as { message: string }).message).toBe(
		'Send the body as JSON, with the header content-type: application/json.'
	);
	const put = await request.fetch('/dev/reminders', { method: 'PUT' });
	expect(put.status()).toBe(405);
	expect(await put.json()).toEqual({ message: 'PUT is not allowed here; use POST.' });
});

test.describe('with an SMTP server', () => {
	const portal = smtpPortal('smtp-server');

	/** A link emailed by the operator's API on this server: queued in the outbox. */
	async function emailLink(request: APIRequestContext, applicationId: number, email: string) {
		const res = await request.post(
			`${portal.origin}/api/v1/offices/1207/applications/${applicationId}/signing-links`,
			{ headers: { authorization: `Bearer ${E2E.operatorKey}` }, data: { email } }
		);
		expect(res.status()).toBe(201);
		const created = (await res.json()) as { url: string; mail: string };
		expect(created.mail).toBe('queued');
		return created;
	}

	/** The console's entry of an application on this server, as Riley (office 1207) sees it. */
	async function consoleSays(browser: Browser, applicationId: number) {
		const context = await browser.newContext({ viewport: TABLET, baseURL: portal.origin });
		const rep = await context.newPage();
		await signIn(rep, REPS.riley);
		await rep.goto(`/rep?q=${applicationId}`);
		return { rep, entry: consoleEntry(rep, applicationId), close: () => context.close() };
	}

	test('the link email goes out by SMTP, after a refusal, and its link opens the signing page', async ({
		browser,
		page,
		request
	}) => {
		// No dev mailbox once SMTP is configured.
		expect((await request.get(`${portal.origin}/dev/mailbox`)).status()).toBe(404);
		// The server refuses at first: the outbox keeps the message and tries again.
		portal.smtp.set('busy');
		const created = await emailLink(request, 50001, 'dana@blueheronbakery.example');
		await expect.poll(() => portal.smtp.rejected.count, { timeout: 20_000 }).toBeGreaterThan(0);
		// The rep is not told it was emailed while it waits to be tried again.
		const { rep, entry, close } = await consoleSays(browser, 50001);
		await expect(entry.locator('.badge')).toHaveText('Link email delayed');
		await expect(entry).toContainText(
			/The email to dana@blueheronbakery\.example has not gone out yet \(.+\); next try .* C[SD]T\./
		);
		await expect(entry).not.toContainText('Emailed to');
		await rep.goto('/rep/applications/50001');
		await expect(rep.locator('.timeline')).toContainText('Signing link created');
		await expect(rep.locator('.timeline')).not.toContainText('Signing link emailed');
		await rep.goto('/rep?q=50001');
		portal.smtp.set('accept');
		await expect.poll(() => portal.smtp.captured.length, { timeout: 30_000 }).toBe(1);
		await expect(async () => {
			await rep.reload();
			await expect(entry.locator('.badge')).toHaveText('Link sent', { timeout: 1_000 });
		}).toPass({ timeout: 10_000 });
		await expect(entry).toContainText(
			/Emailed to dana@blueheronbakery\.example .* C[SD]T; valid until .* C[SD]T\./
		);
		await rep.goto('/rep/applications/50001');
		await expect(rep.locator('.timeline')).toContainText(
			'Signing link emailed Emailed to dana@blueheronbakery.example'
		);
		await close();

		const mail = portal.smtp.captured[0]!;
		expect(mail.envelopeTo).toEqual(['dana@blueheronbakery.example']);
		expect(mail.parsed.subject).toMatch(/^Please review and sign: \S/);
		expect(mail.parsed.text).toMatch(/^Hello Dana Whitfield,$/m);
		const url = mail.parsed.text?.match(/https?:\/\/\S+\/s\/[A-Za-z0-9_-]{43}/)?.[0];
		expect(url).toBe(created.url);
		expect(mail.parsed.text).toMatch(/This link works until .+ Central (Standard|Daylight) Time\./);

		await page.setContent(String(mail.parsed.html));
		await expectReadableOnPhone(page, 'mail-link-smtp');
		await page.getByRole('link', { name: 'Review and sign' }).click();
		await expect(page).toHaveURL(created.url);
		await expect(page.getByRole('heading', { level: 1, name: TEXT.linkHeading })).toBeVisible();
	});

	test('a link email the mail server refuses for good is flagged to the rep with a way forward', async ({
		browser,
		request
	}) => {
		portal.smtp.set('refuse');
		await emailLink(request, 50002, 'nobody@tworivers.example');
		const { rep, entry, close } = await consoleSays(browser, 50002);
		await expect(async () => {
			await rep.reload();
			await expect(entry.locator('.badge')).toHaveText('Link email failed', { timeout: 1_000 });
		}).toPass({ timeout: 20_000 });
		await expect(entry).toContainText(
			'Needs you: The merchant has no link: its email to nobody@tworivers.example could not be sent.'
		);
		await entry.screenshot({ path: resolve(SHOTS, 'console-link-email-failed-tablet.png') });
		await rep.goto('/rep/applications/50002');
		await expect(rep.locator('.attention')).toContainText('could not be sent');
		await expect(
			rep.getByText(
				/A link is out for nobody@tworivers\.example, but its email could not be sent\. It works until/
			)
		).toBeVisible();
		await rep.screenshot({ path: resolve(SHOTS, 'application-link-email-failed-tablet.png') });
		await expect(rep.getByRole('button', { name: 'Make a link to copy' })).toBeVisible();
		await close();
		portal.smtp.set('accept');
	});

	test('a waiting email whose link was replaced is said not to go out, before the outbox comes to it', async ({
		browser,
		request
	}) => {
		portal.smtp.set('busy');
		const refused = portal.smtp.rejected.count;
		await emailLink(request, 50003, 'first@seasonal.example');
		// Refused five times (the tests' first retry comes after a second, then 2, 4, 8): the next
		// try is 16 s away, and the email waits in the outbox until then.
		await expect
			.poll(() => portal.smtp.rejected.count, { timeout: 40_000 })
			.toBeGreaterThanOrEqual(refused + 5);
		await emailLink(request, 50003, 'second@seasonal.example');
		const { rep, close } = await consoleSays(browser, 50003);
		await rep.goto('/rep/applications/50003');
		const mails = rep.getByRole('region', { name: 'Email' }).getByRole('listitem');
		await expect(mails.filter({ hasText: 'first@seasonal.example' })).toContainText(
			'Will not be sent (its link no longer opens: a newer link replaced it), to first@seasonal.example'
		);
		await expect(mails.filter({ hasText: 'first@seasonal.example' })).not.toContainText(
			'Waiting to be sent'
		);
		await expect(mails.filter({ hasText: 'second@seasonal.example' })).not.toContainText(
			'Will not be sent'
		);
		await close();
		portal.smtp.set('accept');
	});
});
