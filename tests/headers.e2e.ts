import { expect, test, type APIResponse } from '@playwright/test';
import { createLink, newApplication, openLinkAndStart, resetSandbox, walkTo } from './support/flow';

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

function directives(csp: string): Map<string, string[]> {
	const out = new Map<string, string[]>();
	for (const part of csp.split(';')) {
		const [name, ...values] = part.trim().split(/\s+/);
		if (name) out.set(name.toLowerCase(), values);
	}
	return out;
}

function expectSecurityHeaders(
	res: APIResponse | { headers(): Record<string, string> },
	what: string
) {
	const h = res.headers();
	const csp = h['content-security-policy'];
	expect(csp, `${what}: CSP`).toBeTruthy();
	const d = directives(csp!);
	const script = d.get('script-src') ?? d.get('default-src') ?? [];
	expect(script, `${what}: script-src`).not.toContain("'unsafe-inline'");
	expect(script, `${what}: script-src`).not.toContain("'unsafe-eval'");
	expect(script, `${what}: script-src`).not.toContain('*');
	expect(d.get('object-src'), `${what}: object-src`).toEqual(["'none'"]);
	expect(d.get('base-uri'), `${what}: base-uri`).toEqual(["'none'"]);
	expect(d.get('frame-ancestors'), `${what}: frame-ancestors`).toEqual(["'none'"]);
	expect(h['cache-control'], `${what}: Cache-Control`).toContain('no-store');
	expect(h['referrer-policy'], `${what}: Referrer-Policy`).toBe('no-referrer');
	expect(h['x-content-type-options'], `${what}: X-Content-Type-Options`).toBe('nosniff');
}

test('signing pages carry a strict CSP and no-store', async ({ page, request }) => {
	const app = await newApplication(request, 'Headers');
	const { path } = await createLink(request, app.id);
	const linkPage = await page.goto(path);
	expectSecurityHeaders(linkPage!, 'link page');
	await openLinkAndStart(page, path);
	const terms = await page.goto('/sign/terms');
	expectSecurityHeaders(terms!, '/sign/terms');
	const unknown = await page.goto('/s/not-a-real-token');
	expectSecurityHeaders(unknown!, 'unknown link page');
});

test('the done page PDFs are PDFs, no-store, and only for the finished session', async ({
	page,
	request,
	browser
}) => {
	const app = await newApplication(request, 'Pdfs');
	await walkTo(page, request, app, 'done');
	for (const [p, name] of [
		['/sign/done/signed-copy.pdf', `signed-application-${app.id}.pdf`],
		['/sign/done/certificate.pdf', `certificate-of-completion-${app.id}.pdf`]
	] as const) {
		const res = await page.request.get(p);
		expect(res.status(), p).toBe(200);
		expect(res.headers()['content-type'], p).toBe('application/pdf');
		expect(res.headers()['cache-control'], p).toContain('no-store');
		expect(res.headers()['x-content-type-options'], p).toBe('nosniff');
		expect(res.headers()['content-disposition'], p).toContain(name);
		const body = await res.body();
		expect(body.subarray(0, 5).toString('latin1'), p).toBe('%PDF-');
		expect(body.length, p).toBeGreaterThan(500);
	}
	// The links on the page download them.
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('link', { name: 'Download the certificate of completion (PDF)' }).click()
	]);
	expect(download.suggestedFilename()).toBe(`certificate-of-completion-${app.id}.pdf`);
	// A PDF viewed directly names no icon: the browser's /favicon.ico finds the pages' own.
	const icon = await page.request.get('/favicon.ico');
	expect(icon.status()).toBe(200);
	expect(icon.headers()['content-type']).toContain('image/svg+xml');
	expect(await icon.text()).toContain('<svg');

	// Another browser, without the session, gets none of them.
	const other = await browser.newContext();
	try {
		for (const p of ['/sign/done/signed-copy.pdf', '/sign/done/certificate.pdf']) {
			const res = await other.request.get(p, { maxRedirects: 0 });
			expect(res.status(), p).toBe(401);
			expect(res.headers()['content-type'] ?? '', p).not.toContain('pdf');
		}
	} finally {
		await other.close();
	}
});
