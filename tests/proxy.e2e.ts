import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, request as apiRequest, test } from '@playwright/test';
import { E2E } from './support/env';
import {
	agreeToTerms,
	createLink,
	fillSignForm,
	freshSsn,
	newApplication,
	openLinkAndStart,
	passIdentity,
	receivedDecision,
	waitForDecision
} from './support/flow';
import { startSecondServer } from './support/second-server';

test('behind a proxy, a decision that came without the forwarded address is refused before it is recorded, keeping what was typed, and the operator is told', async ({
	browser,
	request
}) => {
	test.setTimeout(120_000);
	// The shared server's sandbox, so its control API has the answers and the decisions.
	const server = await startSecondServer('behind-proxy', {
		ONBOARDING_BASE_URL: `${E2E.origin}/sandbox`,
		ADDRESS_HEADER: 'X-Forwarded-For',
		XFF_DEPTH: '1'
	});
	const api = await apiRequest.newContext({ baseURL: server.origin });
	const context = await browser.newContext({
		baseURL: server.origin,
		viewport: { width: 390, height: 844 }
	});
	try {
		const app = await newApplication(request, 'Behind a proxy');
		const { path } = await createLink(api, app.id);
		const page = await context.newPage();
		await openLinkAndStart(page, path);
		await agreeToTerms(page);
		await passIdentity(page, app.id);
		const ssn = freshSsn();
		await fillSignForm(page, { ssn, email: 'proxy.signer@testshop.example' });
		await page.getByRole('button', { name: 'Accept and sign' }).click();
		await expect(page.getByRole('alert')).toContainText(
			'We can’t record your decision right now because of a problem on our side'
		);
		await expect(page.getByLabel('Email', { exact: true })).toHaveValue(
			'proxy.signer@testshop.example'
		);
		expect(await receivedDecision(request, app.id)).toBeNull();
		const log = readFileSync(resolve(E2E.dir, 'behind-proxy', 'server.log'), 'utf8');
		expect(log).toContain('[http] a request came without a usable X-Forwarded-For header');

		// Through the proxy, the address it forwards is the one the service is given.
		await context.setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.7' });
		await page.getByLabel('Social Security Number').fill(ssn);
		await page.getByRole('button', { name: 'Accept and sign' }).click();
		await expect(page).toHaveURL(/\/sign\/done$/);
		const decision = await waitForDecision(request, app.id);
		expect(decision.body.IPAddress).toBe('203.0.113.7');
		expect(decision.body.MerchantIPAddress).toBe('203.0.113.7');
	} finally {
		await context.close();
		await api.dispose();
		await server.stop();
	}
});
