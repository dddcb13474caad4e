// A signing session that ends (idle) while the merchant fills in the sign step: what they typed
// is not lost. A portal of its own, whose sessions end after a minute without activity.
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { exampleCreateRequest } from '../src/lib/server/onboarding/fixtures';
import {
	agreeToTerms,
	fillSignForm,
	freshSsn,
	noScriptContext,
	openLinkAndStart,
	ready,
	receivedDecision,
	startQuestions
} from './support/flow';
import { E2E } from './support/env';
import { startSecondServer } from './support/second-server';

/** An application in the second portal's own sandbox, and a link to it (the flow helpers' are the shared portal's). */
async function applicationWithLink(request: APIRequestContext, last: string) {
	const doc = exampleCreateRequest() as unknown as Record<string, Record<string, unknown>>;
	doc.OwnerOfficer!.Ownr1_Legal_Name_Last = last;
	const created = await request.post('/sandbox/api/office/1207/application', { data: doc });
	expect(created.status(), await created.text()).toBeLessThan(300);
	const id = Number(((await created.json()) as { ApplicationID: number }).ApplicationID);
	const link = await request.post(`/api/v1/offices/1207/applications/${id}/signing-links`, {
		headers: { authorization: `Bearer ${E2E.operatorKey}` },
		data: { email: 'owner@session-end.example' }
	});
	expect(link.status()).toBe(201);
	return { id, path: new URL(((await link.json()) as { url: string }).url).pathname };
}

/** The right answers, from this portal's sandbox. */
async function passIdentity(page: Page, request: APIRequestContext, id: number) {
	await startQuestions(page);
	const res = await request.get(`/sandbox/_sandbox/answers/latest/${id}?office=1207`);
	const { Answers } = (await res.json()) as { Answers: { QuestionID: number; ChoiceID: number }[] };
	for (const a of Answers)
		await page.check(`input[name="q-${a.QuestionID}"][value="${a.ChoiceID}"]`);
	await page.getByRole('button', { name: 'Submit answers' }).click();
	await expect(page).toHaveURL(/\/sign\/sign$/);
}

test('a session that ends on the sign step keeps what was typed there, but the SSN and the ticks, for the same link, script or not', async ({
	browser,
	playwright
}) => {
	// Two merchants wait out the minute side by side.
	test.setTimeout(240_000);
	const server = await startSecondServer('session-idle', { SESSION_IDLE_MINUTES: '1' });
	const request = await playwright.request.newContext({ baseURL: server.origin });
	const contextFor = (b: Browser, js: boolean) =>
		js ? b.newContext({ baseURL: server.origin }) : noScriptContext(b, { baseURL: server.origin });
	try {
		const merchants = [];
		for (const js of [true, false]) {
			const page = await (await contextFor(browser, js)).newPage();
			const app = await applicationWithLink(request, js ? 'Scripted' : 'Plain');
			const link = app.path;
			await openLinkAndStart(page, link);
			await agreeToTerms(page);
			await passIdentity(page, request, app.id);
			const typed = {
				first: 'Danielle',
				last: js ? 'Scripted' : 'Plain',
				notificationEmail: 'notices@idle.example'
			};
			await fillSignForm(page, { ...typed, ssn: freshSsn() });
			merchants.push({ js, page, app, link, typed });
		}
		// Read elsewhere for longer than the session's minute (it is touched every 6 s at most).
		await merchants[0]!.page.waitForTimeout(70_000);
		for (const { js, page, app, link, typed } of merchants) {
			const signature = `${typed.first} ${typed.last}`;
			await page.getByRole('button', { name: 'Accept and sign' }).click();
			await expect(
				page.getByText(/ended after 1 minute without activity/),
				String(js)
			).toBeVisible();
			await expect(
				page.getByText(
					'Your names, emails and signature are kept for it; you will tick the documents and type your Social Security Number again.'
				)
			).toBeVisible();

			// The same link again: past identity, the form as it was left, less the SSN and ticks.
			await openLinkAndStart(page, link);
			await agreeToTerms(page);
			await page.getByRole('button', { name: 'Continue to signing' }).click();
			await expect(page).toHaveURL(/\/sign\/sign$/);
			await ready(page);
			await expect(page.getByLabel('First name')).toHaveValue(typed.first);
			await expect(page.getByLabel('Last name')).toHaveValue(typed.last);
			await expect(page.getByLabel('Notification email')).toHaveValue(typed.notificationEmail);
			await expect(page.getByLabel('Type your full name to sign')).toHaveValue(signature);
			await expect(page.getByLabel('Social Security Number')).toHaveValue('');
			await expect(
				page
					.getByRole('group', { name: 'Confirm each document' })
					.getByRole('checkbox', { checked: true })
			).toHaveCount(0);
			await fillSignForm(page, { ssn: freshSsn() });
			await page.getByRole('button', { name: 'Accept and sign' }).click();
			await expect(page).toHaveURL(/\/sign\/done$/);
			const received = () => receivedDecision(request, app.id, `${server.origin}/sandbox`);
			await expect.poll(received).not.toBeNull();
			const decision = (await received())!;
			expect(decision.body.MerchantFirstName).toBe(typed.first);
			expect(decision.body.MerchantLastName).toBe(typed.last);
			expect(decision.body.NotificationEmail).toBe(typed.notificationEmail);
			await page.context().close();
		}
	} finally {
		await request.dispose();
		await server.stop();
	}
});
