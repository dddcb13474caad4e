import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E } from './support/env';
import { HOSTILE_HTML } from './xss/hostile-html';
import {
	SECTION_TITLES,
	agreeToTerms,
	clearSections,
	createLink,
	newApplication,
	openLinkAndStart,
	resetSandbox,
	setSection,
	type SectionKey
} from './support/flow';

// The sandbox keeps overrides in PostgreSQL, whose text holds neither U+0000 nor half a surrogate
// pair: those few vectors are checked by the sanitizer's unit tests only.
const vectors = HOSTILE_HTML.filter((v) => v.payload.isWellFormed() && !v.payload.includes('\0'));

/** Four sections per page load. */
const SECTIONS: SectionKey[] = [
	'TermsAndConditions',
	'PaymentReceipt',
	'IndividualGuaranty',
	'NextDayFunding'
];

/** Records alert/confirm/prompt/print/open calls and CSP violations, before any page script. */
const TRAP = () => {
	const w = window as unknown as Record<string, unknown>;
	const calls: string[] = [];
	const violations: string[] = [];
	Object.defineProperty(w, '__xssCalls', { value: calls });
	Object.defineProperty(w, '__cspViolations', { value: violations });
	for (const name of ['alert', 'confirm', 'prompt', 'print', 'open']) {
		Object.defineProperty(w, name, {
			configurable: false,
			writable: false,
			value: (...args: unknown[]) => {
				calls.push(`${name}(${args.map(String).join(',')})`);
				return null;
			}
		});
	}
	document.addEventListener('securitypolicyviolation', (e) =>
		violations.push(`${e.violatedDirective} ${e.blockedURI}`)
	);
};

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

test.afterEach(async ({ request }) => {
	await clearSections(request);
});

/** What a payload left behind on the page; runs in the browser. */
function scan() {
	const w = window as unknown as Record<string, unknown>;
	const bad: string[] = [];
	const FORBIDDEN = ['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet'];
	FORBIDDEN.push('form', 'base', 'meta', 'link', 'noscript', 'template', 'style', 'svg', 'math');
	FORBIDDEN.push('img', 'input', 'button', 'select', 'textarea', 'dialog', 'area');
	const URL_ATTRS = ['href', 'src', 'action', 'formaction', 'data', 'srcset', 'poster'];
	URL_ATTRS.push(
		'background',
		'lowsrc',
		'dynsrc',
		'cite',
		'longdesc',
		'values',
		'from',
		'to',
		'by'
	);
	const bodies = [...document.querySelectorAll('.terms-body')];
	for (const body of bodies) {
		for (const el of body.querySelectorAll('*')) {
			const tag = el.localName.toLowerCase();
			if (FORBIDDEN.includes(tag)) bad.push(`<${tag}>`);
			for (const a of el.attributes) {
				const name = a.name.toLowerCase();
				// eslint-disable-next-line no-control-regex
				const value = a.value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
				if (name.startsWith('on')) bad.push(`${tag}[${name}]`);
				const url = URL_ATTRS.includes(name.replace(/^xlink:/, ''));
				if (url && /^(javascript:|vbscript:|data:text\/html)/.test(value)) {
					bad.push(`${tag}[${name}=${a.value.slice(0, 40)}]`);
				}
				if (name === 'style' && /expression\(|javascript:|behavior:/.test(value)) {
					bad.push(`${tag}[style]`);
				}
			}
			// A link that opens a window must give it no handle on the signing page.
			const rel = (el.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
			if (el.hasAttribute('target') && !(rel.includes('noopener') && rel.includes('noreferrer'))) {
				bad.push(`${tag}[target] without rel=noopener noreferrer`);
			}
		}
	}
	// A script would set a value; an element with that id (DOM named access) is not one.
	const markers = ['xss', '__xss', 'pwned', 'hacked', 'XSS'].filter(
		(k) => k in w && !(w[k] instanceof Element) && !(w[k] instanceof HTMLCollection)
	);
	return {
		bad,
		calls: (w.__xssCalls as string[]).slice(),
		markers,
		clobbered:
			typeof document.getElementById !== 'function' ||
			typeof document.querySelector !== 'function' ||
			typeof document.createElement !== 'function',
		bodies: bodies.length
	};
}

test(`the ${vectors.length} hostile-HTML vectors as acceptance language run no script`, async ({
	page,
	request
}) => {
	test.setTimeout(240_000);
	expect(vectors.length).toBeGreaterThanOrEqual(250);
	const app = await newApplication(request, 'Xss');
	const { path } = await createLink(request, app.id);

	const dialogs: string[] = [];
	const popups: string[] = [];
	const cspConsole: string[] = [];
	page.on('dialog', (d) => {
		dialogs.push(`${d.type()}: ${d.message()}`);
		void d.dismiss().catch(() => {});
	});
	page.on('popup', (p) => popups.push(p.url()));
	page.on('console', (m) => {
		if (/Content Security Policy/i.test(m.text())) cspConsole.push(m.text());
	});
	await page.addInitScript(TRAP);
	await openLinkAndStart(page, path);

	// The detectors themselves work: a call of alert(), a planted handler and a link that would
	// hand the page to the window it opens are all seen.
	await page.evaluate(() => {
		window.alert('probe');
		const img = document.createElement('img');
		img.setAttribute('onerror', 'void 0');
		const a = document.createElement('a');
		a.setAttribute('target', '_blank');
		document.querySelector('.terms-body')!.append(img, a);
	});
	const probe = await page.evaluate(scan);
	expect(probe.calls).toEqual(['alert(probe)']);
	expect(probe.bad).toEqual(['<img>', 'img[onerror]', 'a[target] without rel=noopener noreferrer']);

	const failures: string[] = [];
	for (let start = 0; start < vectors.length; start += SECTIONS.length) {
		const batch = vectors.slice(start, start + SECTIONS.length);
		for (const [i, v] of batch.entries()) {
			await setSection(request, SECTIONS[i]!, { html: v.payload, presented: true });
		}
		for (let i = batch.length; i < SECTIONS.length; i++) {
			await setSection(request, SECTIONS[i]!, { presented: false });
		}
		const label = `vectors ${start}–${start + batch.length - 1}`;

		const res = await page.goto('/sign/terms');
		expect(res?.status(), label).toBe(200);
		await expect(page, label).toHaveURL(/\/sign\/terms$/);
		// Every non-blank payload became a section under its own heading.
		const shown = batch
			.map((v, i) => (v.payload.trim() === '' ? null : SECTION_TITLES[SECTIONS[i]!]))
			.filter((t) => t !== null);
		expect(await page.locator('section.terms h2').allInnerTexts(), label).toEqual(shown);
		// Give timers, image errors and animations a moment to fire.
		await page.waitForTimeout(150);

		const found = await page.evaluate(scan);
		const titles = batch.map((v) => `${v.class}: ${v.title}`).join(' / ');
		if (found.bad.length) failures.push(`${label} (${titles}): kept ${found.bad.join(' ')}`);
		if (found.calls.length)
			failures.push(`${label} (${titles}): script ran: ${found.calls.join(' ')}`);
		if (found.markers.length)
			failures.push(`${label} (${titles}): globals set: ${found.markers.join(' ')}`);
		if (found.clobbered) failures.push(`${label} (${titles}): document methods clobbered`);
	}
	// CSP reports are recorded, not required: the sanitizer should leave nothing to block.
	const note = `${cspConsole.length} CSP console messages${cspConsole.length ? ': ' + cspConsole.slice(0, 5).join(' | ') : ''}`;
	test.info().annotations.push({ type: 'csp-violations', description: note });
	appendFileSync(resolve(E2E.dir, 'xss-csp.txt'), note + '\n');
	expect(dialogs, 'no dialog ever opened').toEqual([]);
	expect(popups, 'no window ever opened').toEqual([]);
	expect(failures).toEqual([]);

	// The session still works after all that: consent goes through.
	await clearSections(request);
	await page.goto('/sign/terms');
	await agreeToTerms(page);
});

test('ordinary formatting survives the sanitizer', async ({ page, request }) => {
	const app = await newApplication(request, 'Formatting');
	await setSection(request, 'TermsAndConditions', {
		html: `<h3>Fees</h3><p>Read <strong>this</strong> and <em>that</em> and <b>bold</b> and <i>italic</i>.</p>
<ul><li>one</li><li>two</li></ul><ol><li>first</li><li>second</li></ol>
<table><thead><tr><th>Fee</th><th>Amount</th></tr></thead><tbody><tr><td>Monthly</td><td>$9.95</td></tr></tbody></table>
<p><a href="https://example.com/rules">network rules</a> · <a href="mailto:help@example.com">write to us</a> ·
<a href="javascript:alert(1)">bad link</a></p><h4>Small print</h4><blockquote>quoted</blockquote><p>line<br>break</p>`
	});
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);
	const body = page
		.locator('section.terms')
		.filter({ has: page.getByRole('heading', { name: 'Terms and Conditions' }) })
		.locator('.terms-body');
	await expect(body.locator('h3')).toHaveText('Fees');
	await expect(body.locator('h4')).toHaveText('Small print');
	await expect(body.locator('strong')).toHaveText('this');
	await expect(body.locator('em')).toHaveText('that');
	await expect(body.locator('ul > li')).toHaveCount(2);
	await expect(body.locator('ol > li')).toHaveCount(2);
	await expect(body.locator('table thead th')).toHaveText(['Fee', 'Amount']);
	await expect(body.locator('table tbody td')).toHaveText(['Monthly', '$9.95']);
	await expect(body.getByRole('link', { name: 'network rules' })).toHaveAttribute(
		'href',
		'https://example.com/rules'
	);
	await expect(body.getByRole('link', { name: 'write to us' })).toHaveAttribute(
		'href',
		'mailto:help@example.com'
	);
	const badHref = await body
		.getByText('bad link')
		.evaluate((el) => el.closest('a')?.getAttribute('href') ?? null);
	expect(badHref ?? '').not.toMatch(/javascript/i);
	// Links to other sites open safely.
	const rel = await body.getByRole('link', { name: 'network rules' }).getAttribute('rel');
	test.info().annotations.push({ type: 'external link rel', description: String(rel) });
});
