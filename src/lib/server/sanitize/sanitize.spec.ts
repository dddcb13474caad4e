import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize';

interface Vector {
	title: string;
	payload: string;
	expected: string;
}

// The fixtures are shared by the whole team, beside the project rather than inside it.
const vectors = JSON.parse(
	readFileSync(resolve(process.cwd(), '../shared/xss/dompurify-vectors.json'), 'utf8')
) as Vector[];

const FORBIDDEN_TAGS = new Set([
	'script',
	'iframe',
	'object',
	'embed',
	'form',
	'base',
	'meta',
	'style',
	'svg',
	'math',
	'img',
	'link',
	'input',
	'template',
	'h1',
	'h2'
]);
const BAD_URL = /^(?:javascript|vbscript|data):/i;
const stripControls = (s: string) => [...s].filter((c) => c.charCodeAt(0) > 0x20).join('');
const ALLOWED_ATTRS = new Set(['href', 'rel', 'target', 'colspan', 'rowspan', 'scope']);

/** Everything wrong with the markup, found by walking the DOM a browser would build from it. */
function problems(html: string): string[] {
	const { document } = new JSDOM(`<!doctype html><body>${html}</body>`).window;
	const found: string[] = [];
	for (const el of Array.from(document.body.querySelectorAll('*'))) {
		const tag = el.localName;
		if (FORBIDDEN_TAGS.has(tag)) found.push(`<${tag}>`);
		if (el.namespaceURI !== 'http://www.w3.org/1999/xhtml') found.push(`namespace ${tag}`);
		for (const attr of Array.from(el.attributes)) {
			const name = attr.name.toLowerCase();
			if (name.startsWith('on')) found.push(`${tag}[${name}]`);
			// The one attribute the portal adds itself: tables scroll, so they take keyboard focus.
			const added = tag === 'table' && name === 'tabindex' && attr.value === '0';
			if (!ALLOWED_ATTRS.has(name) && !added) found.push(`${tag}[${name}] not allowed`);
			// Browsers ignore control characters and whitespace when reading a scheme.
			if (BAD_URL.test(stripControls(attr.value))) {
				found.push(`${tag}[${name}]=${attr.value.slice(0, 20)}`);
			}
		}
	}
	// A second opinion that does not depend on jsdom parsing the output the way we expect.
	if (/<\s*\/?\s*(script|iframe|object|embed|form|base|meta|style|svg|math)\b/i.test(html)) {
		found.push('forbidden tag text');
	}
	// Inside a tag only: escaped text such as `&lt;img onerror=…&gt;` is harmless.
	if (/<[^>]*\son[a-z]+\s*=/i.test(html)) found.push('event handler text');
	return found;
}

describe('sanitizeHtml on DOMPurify’s own hostile fixtures', () => {
	it('has all 223 vectors', () => {
		expect(vectors).toHaveLength(223);
	});

	it.each(vectors.map((v, i) => [i, v.title, v.payload] as const))(
		'#%i %s',
		(_i, _title, payload) => {
			const { html } = sanitizeHtml(payload);
			expect(problems(html)).toEqual([]);
			// Idempotent: a second pass changes nothing, so the stored hash is stable.
			expect(sanitizeHtml(html).html).toBe(html);
		}
	);
});

describe('sanitizeHtml on hand-written attacks', () => {
	const attacks = [
		'<a href="javascript:alert(1)">x</a>',
		'<a href=" jav&#x09;ascript:alert(1)">x</a>',
		'<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
		'<a href="vbscript:msgbox(1)">x</a>',
		'<p style="position:fixed;inset:0">overlay</p>',
		'<p id="location" class="btn">clobber</p>',
		'<form id="f"><input name="ssn"></form>',
		'<img src=x onerror=alert(1)>',
		'<svg><script>alert(1)</script></svg>',
		'<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
		'<base href="https://evil.example/">',
		'<meta http-equiv="refresh" content="0;url=https://evil.example">',
		'<style>body{display:none}</style>',
		'<iframe srcdoc="<script>alert(1)</script>"></iframe>',
		'<object data="x.swf"></object><embed src="x.swf">',
		'<p data-x="1" aria-hidden="true" title="t">attrs</p>',
		'<noscript><p title="</noscript><img src=x onerror=alert(1)>">'
	];
	it.each(attacks)('%s', (raw) => {
		expect(problems(sanitizeHtml(raw).html)).toEqual([]);
	});

	it('keeps the text of a removed wrapper but drops script content', () => {
		const { html } = sanitizeHtml('<font>kept</font><script>dropped()</script>');
		expect(html).toBe('kept');
	});

	it('drops relative links, which would point into the portal', () => {
		expect(sanitizeHtml('<a href="/rep/login">x</a>').html).toBe('<a>x</a>');
	});
});

describe('sanitizeHtml keeps ordinary formatting', () => {
	it('keeps headings (shifted to start at h3, under the page’s h2), paragraphs, lists and emphasis', () => {
		const raw =
			'<h1>Title</h1><h2>Sub</h2><h4>Small</h4><p><strong>Bold</strong> <b>b</b> <em>it</em> <i>i</i> <u>u</u></p>' +
			'<ul><li>one</li></ul><ol><li>two</li></ol><dl><dt>t</dt><dd>d</dd></dl><blockquote>q</blockquote>';
		expect(sanitizeHtml(raw).html).toBe(
			'<h3>Title</h3><h4>Sub</h4><h6>Small</h6><p><strong>Bold</strong> <b>b</b> <em>it</em> <i>i</i> <u>u</u></p>' +
				'<ul><li>one</li></ul><ol><li>two</li></ol><dl><dt>t</dt><dd>d</dd></dl><blockquote>q</blockquote>'
		);
	});

	it('moves a section whose headings start at h4 up to h3, and caps deep ones at h6', () => {
		expect(sanitizeHtml('<h4>A</h4><h5>B</h5>').html).toBe('<h3>A</h3><h4>B</h4>');
		expect(sanitizeHtml('<h1>A</h1><h6>B</h6>').html).toBe('<h3>A</h3><h6>B</h6>');
	});

	it('keeps tables with their spans and scopes, and drops bad values', () => {
		const raw =
			'<table><caption>Fees</caption><thead><tr><th scope="col" colspan="2">Fee</th></tr></thead>' +
			'<tbody><tr><td rowspan="2">1%</td><td colspan="x" scope="javascript:1">2%</td></tr></tbody></table>';
		expect(sanitizeHtml(raw).html).toBe(
			'<table tabindex="0"><caption>Fees</caption><thead><tr><th scope="col" colspan="2">Fee</th></tr></thead>' +
				'<tbody><tr><td rowspan="2">1%</td><td>2%</td></tr></tbody></table>'
		);
	});

	it('keeps https, mailto, tel and fragment links, opening web links in a new tab safely', () => {
		const { html } = sanitizeHtml(
			'<a href="https://example.com/terms" target="_self">web</a> <a href="mailto:help@example.com">mail</a> ' +
				'<a href="tel:+15555550100">call</a> <a href="#fees">fees</a>'
		);
		expect(html).toBe(
			'<a href="https://example.com/terms" rel="noopener noreferrer" target="_blank">web</a> ' +
				'<a href="mailto:help@example.com" rel="noopener noreferrer">mail</a> ' +
				'<a href="tel:+15555550100" rel="noopener noreferrer">call</a> ' +
				'<a href="#fees" rel="noopener noreferrer">fees</a>'
		);
	});

	it('hashes the exact sanitized HTML', () => {
		const a = sanitizeHtml('<p>Terms</p>');
		expect(a.sha256).toBe(createHash('sha256').update('<p>Terms</p>').digest('hex'));
		expect(sanitizeHtml('<p>Terms</p><script>x</script>').sha256).toBe(a.sha256);
		expect(sanitizeHtml('<p>Terms.</p>').sha256).not.toBe(a.sha256);
	});
});
