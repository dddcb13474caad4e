import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { expect, request as apiRequest, test } from '@playwright/test';
import { freePort } from '../src/lib/server/mail/test-smtp';
import { TEST_DATABASE_URL, throwawayDatabase } from '../src/lib/server/testing/postgres';
import { E2E } from './support/env';
import {
	agreeToTerms,
	createLink,
	newApplication,
	openLinkAndStart,
	postLink
} from './support/flow';
import { REPS, signIn } from './support/reps';
import { startSecondServer } from './support/second-server';

/**
 * A TCP relay between the portal and PostgreSQL that the test can cut (every connection dropped,
 * new ones refused, as when the server stops) and put back on the same port.
 */
async function relay(to: URL) {
	const port = await freePort();
	const sockets = new Set<Socket>();
	let server: Server | null = null;
	const listen = () =>
		new Promise<void>((done) => {
			server = createServer((client) => {
				const upstream = createConnection(Number(to.port || 5432), to.hostname);
				for (const s of [client, upstream]) {
					sockets.add(s);
					s.on('close', () => sockets.delete(s));
					s.on('error', () => {});
				}
				client.pipe(upstream).pipe(client);
			}).listen(port, '127.0.0.1', done);
		});
	await listen();
	return {
		port,
		cut: async () => {
			const closed = new Promise((done) => server?.close(done));
			for (const s of sockets) s.destroy();
			await closed;
		},
		restore: listen
	};
}

test('while the database is away, merchants and reps are told to come back, not that something broke; then each goes on where they were', async ({
	browser,
	request
}) => {
	test.skip(!TEST_DATABASE_URL, 'needs a PostgreSQL server (TEST_DATABASE_URL; CI has one)');
	test.setTimeout(150_000);
	const db = await throwawayDatabase(TEST_DATABASE_URL!);
	const url = new URL(db.url);
	const link = await relay(url);
	const relayed = new URL(db.url);
	relayed.host = `127.0.0.1:${link.port}`;
	const server = await startSecondServer('db-outage', {
		DATABASE_URL: relayed.href,
		PORTAL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
		ONBOARDING_BASE_URL: `${E2E.origin}/sandbox`
	});
	const api = await apiRequest.newContext({ baseURL: server.origin });
	const context = await browser.newContext({
		baseURL: server.origin,
		viewport: { width: 390, height: 844 }
	});
	try {
		const app = await newApplication(request, 'Database away');
		const { path } = await createLink(api, app.id);
		const page = await context.newPage();
		await openLinkAndStart(page, path);
		const rep = await (await browser.newContext({ baseURL: server.origin })).newPage();
		await signIn(rep, REPS.riley);

		await link.cut();
		// Mid-signing, the session is read before any page: the portal's plain error page.
		await page.goto('/sign/terms');
		await expect(page.getByRole('heading', { level: 1, name: 'Not available' })).toBeVisible();
		await expect(page.getByText(/^We can’t reach our records just now\./)).toBeVisible();
		// A link opened afresh: the page's load meets it, and the portal's own error page says so.
		const fresh = await (await browser.newContext({ baseURL: server.origin })).newPage();
		const away = await fresh.goto(path);
		// 503 with Retry-After: a load balancer's and a client's "try again shortly".
		expect(away?.status()).toBe(503);
		expect(away?.headers()['retry-after']).toBe('30');
		await expect(
			fresh.getByRole('heading', { level: 1, name: 'Not available just now' })
		).toBeVisible();
		await expect(fresh.getByText('We can’t reach our records just now.')).toBeVisible();
		await expect(fresh.getByText('your link still works')).toBeVisible();
		await expect(fresh.getByText('Something went wrong on our side')).toHaveCount(0);
		await fresh.context().close();
		await rep.goto('/rep');
		await expect(rep.getByRole('heading', { level: 1, name: 'Not available' })).toBeVisible();
		await expect(rep.getByText(/^The portal can’t reach its records just now/)).toBeVisible();
		expect((await api.get('/healthz')).status()).toBe(503);
		// The operator API: 503 in JSON, in words for its caller (not a merchant's "your link").
		const made = await postLink(api, app.id);
		expect(made.status()).toBe(503);
		expect(made.headers()['retry-after']).toBe('30');
		expect(await made.json()).toEqual({
			message:
				'The portal’s database is not answering just now, so nothing was done. Try again shortly (see Retry-After); the portal’s /healthz says when it answers again.',
			// The log's line for it carries the same id.
			errorId: expect.stringMatching(/^[0-9a-f-]{36}$/)
		});
		// The log says what happened in our words, never the driver's.
		const log = readFileSync(resolve(E2E.dir, 'db-outage', 'server.log'), 'utf8');
		expect(log).toMatch(/GET \/s\/\[token\] failed: .*ECONNREFUSED/);
		expect(log).not.toMatch(/connect ECONNREFUSED 127\.0\.0\.1/);

		await link.restore();
		await expect
			.poll(async () => (await api.get('/healthz')).status(), { timeout: 20_000 })
			.toBe(200);
		// Nothing was lost: the signing goes on where it was.
		await page.goto('/sign/terms');
		await agreeToTerms(page);
		await rep.goto('/rep');
		await expect(rep.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
		await rep.context().close();
	} finally {
		await context.close();
		await api.dispose();
		await server.stop();
		await link.cut();
		await db.drop();
	}
});
