import { expect, test } from '@playwright/test';
import {
	agreeToTerms,
	carriesSsn,
	clearFaults,
	createLink,
	fillSignForm,
	freshSsn,
	newApplication,
	openLinkAndStart,
	passIdentity,
	ready,
	receivedDecision,
	resetSandbox,
	setFault,
	TEXT,
	waitForDecision,
	AT_TERMS
} from './support/flow';

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

test.afterEach(async ({ request }) => {
	await clearFaults(request);
});

test('service down at decision time: recorded, then delivered once it is back', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Outage');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await passIdentity(page, app.id);

	await setFault(request, 'merchantdecision', { status: 503 });
	const ssn = freshSsn();
	await fillSignForm(page, { ssn });
	await page.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(page).toHaveURL(/\/sign\/done$/);
	await expect(page.getByRole('heading', { level: 1, name: TEXT.signedTitle })).toBeVisible();
	await expect(page.getByText(TEXT.beingSent)).toBeVisible();
	await expect(page.getByText(/Your decision is safely recorded/)).toBeVisible();
	expect(await receivedDecision(request, app.id)).toBeNull();

	// While the service stays down, the worker keeps trying and the page keeps saying so.
	await page.waitForTimeout(2_000);
	await page.reload();
	await expect(page.getByText(TEXT.beingSent)).toBeVisible();
	expect(await receivedDecision(request, app.id)).toBeNull();

	await clearFaults(request);
	const d = await waitForDecision(request, app.id, 15_000);
	expect(d.body.IsAccepted).toBe(true);
	expect(carriesSsn(d, ssn)).toBe(true);
	expect(carriesSsn(d, '219-09-9999')).toBe(false);
	expect(d.body.IPAddress).toBe('127.0.0.1');

	await expect(async () => {
		await page.reload();
		await expect(page.getByText(String(d.merchantDecisionId), { exact: true })).toBeVisible({
			timeout: 1_000
		});
	}).toPass({ timeout: 10_000 });
	await expect(page.getByText(TEXT.beingSent)).toHaveCount(0);
});

test('service down when the merchant opens the link: told to try again, nothing started', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Outage open');
	const { path } = await createLink(request, app.id);
	await page.goto(path);
	await ready(page);
	await setFault(request, 'listapplications', { status: 503 });
	await page.getByRole('button', { name: 'Start' }).click();
	await expect(page.getByText(/can’t reach the onboarding service/)).toBeVisible();
	expect((await page.context().cookies()).filter((c) => c.name === 'signing_session')).toHaveLength(
		0
	);
	await clearFaults(request);
	await page.getByRole('button', { name: 'Start' }).click();
	await expect(page).toHaveURL(AT_TERMS);
});

test('acceptance language unavailable: a plain 503 page, and a reload recovers', async ({
	page,
	request
}) => {
	const app = await newApplication(request, 'Outage terms');
	const { path } = await createLink(request, app.id);
	await page.goto(path);
	await ready(page);
	await setFault(request, 'acceptancelanguage', { status: 500 });
	await page.getByRole('button', { name: 'Start' }).click();
	await expect(page.getByText(/can’t load the agreement right now/)).toBeVisible();
	await clearFaults(request);
	await page.reload();
	await expect(page.getByRole('heading', { level: 2, name: 'Terms and Conditions' })).toBeVisible();
});
