import { createHash } from 'node:crypto';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import {
	HOSTILE_HTML,
	VECTOR_CLASSES,
	type HostileVector
} from '../../../../tests/xss/hostile-html';
import { sanitizeHtml } from './sanitize';

/** What the sanitized output may contain at all: the formatting legal text needs, nothing else. */
const OUTPUT_TAGS = new Set(
	[
		'h3 h4 h5 h6 p br hr ul ol li dl dt dd strong b em i u s small sub sup blockquote pre code',
		'span div section table caption thead tbody tfoot tr th td a'
	]
		.join(' ')
		.split(' ')
);
const ALLOWED_ATTRS = new Set(['href', 'rel', 'target', 'colspan', 'rowspan', 'scope']);
// Browsers ignore control characters and whitespace when reading a scheme.
const stripControls = (s: string) => [...s].filter((c) => c.charCodeAt(0) > 0x20).join('');
const BAD_URL = /^(?:javascript|vbscript|data):/i;
const GOOD_URL = /^(?:(?:https?|mailto|tel):|#)/i;

/** Everything wrong with the markup, found by walking the DOM a browser would build from it. */
function problems(html: string): string[] {
	const { document } = new JSDOM(`<!doctype html><body>${html}</body>`).window;
	const found: string[] = [];
	for (const el of Array.from(document.body.querySelectorAll('*'))) {
		const tag = el.localName;
		if (!OUTPUT_TAGS.has(tag)) found.push(`<${tag}>`);
		if (el.namespaceURI !== 'http://www.w3.org/1999/xhtml') found.push(`namespace ${tag}`);
		for (const attr of Array.from(el.attributes)) {
			const name = attr.name.toLowerCase();
			if (name.startsWith('on')) found.push(`${tag}[${name}]`);
			// The one attribute the portal adds itself: tables scroll, so they take keyboard focus.
			const added = tag === 'table' && name === 'tabindex' && attr.value === '0';
			if (!ALLOWED_ATTRS.has(name) && !added) found.push(`${tag}[${name}] not allowed`);
			if (BAD_URL.test(stripControls(attr.value))) {
				found.push(`${tag}[${name}]=${attr.value.slice(0, 20)}`);
			}
		}
		if (tag === 'a') found.push(...linkProblems(el));
	}
	// A second opinion that does not depend on jsdom parsing the output the way we expect.
	if (/<\s*\/?\s*(script|iframe|object|embed|form|base|meta|style|svg|math)\b/i.test(html)) {
		found.push('forbidden tag text');
	}
	// Inside a tag only: escaped text such as `&lt;img onerror=…&gt;` is harmless.
	if (/<[^>]*\son[a-z]+\s*=/i.test(html)) found.push('event handler text');
	return found;
}

/** Links go only to web, mail and phone addresses or in-page fragments, and never tabnab. */
function linkProblems(a: Element): string[] {
	const found: string[] = [];
	const href = a.getAttribute('href');
	if (href !== null && !GOOD_URL.test(stripControls(href))) found.push(`a[href=${href}]`);
	const rel = (a.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
	if (href !== null && !(rel.includes('noopener') && rel.includes('noreferrer'))) {
		found.push(`a[rel=${rel.join(' ')}] lacks noopener noreferrer`);
	}
	if (rel.includes('opener')) found.push('a[rel~=opener]');
	const target = a.getAttribute('target');
	if (target !== null && (target !== '_blank' || href === null)) found.push(`a[target=${target}]`);
	return found;
}

/**
 * Whether the markup stays inside the box it is put in: nothing left open swallows the page
 * after it (dangling markup), and parsing it again gives the same markup (no mutation).
 */
function leaks(html: string): string[] {
	const { document } = new JSDOM(
		`<!doctype html><body><div id="box">${html}</div><p id="after">after</p></body>`
	).window;
	const found: string[] = [];
	const box = document.getElementById('box');
	const after = document.getElementById('after');
	if (!box || box.parentElement !== document.body) found.push('box moved');
	if (!after || after.parentElement !== document.body || after.textContent !== 'after') {
		found.push('swallowed what follows');
	}
	if (box && box.innerHTML !== html) found.push('changed when parsed again');
	return found;
}

describe('the hostile-HTML corpus (tests/xss/hostile-html.ts)', () => {
	it('covers every class with enough vectors, none repeated', () => {
		expect(HOSTILE_HTML.length).toBeGreaterThanOrEqual(250);
		for (const c of VECTOR_CLASSES) {
			expect(HOSTILE_HTML.filter((v) => v.class === c).length, c).toBeGreaterThanOrEqual(12);
		}
		expect(new Set(HOSTILE_HTML.map((v) => v.payload)).size).toBe(HOSTILE_HTML.length);
	});

	it('the checks themselves see what they look for', () => {
		expect(problems('<img src=x onerror=alert(1)>')).toEqual(
			expect.arrayContaining(['<img>', 'img[onerror]', 'img[src] not allowed'])
		);
		expect(problems('<a href="java&#x09;script:x">x</a>')).toContain('a[href]=java\tscript:x');
		expect(problems('<a href="https://x.example" target="_blank">x</a>')).toContain(
			'a[rel=] lacks noopener noreferrer'
		);
		expect(problems('<a href="/rep">x</a>')).toContain('a[href=/rep]');
		expect(leaks('<a href="x">open')).toContain('changed when parsed again');
		expect(leaks('<textarea>')).toContain('swallowed what follows');
	});
});

describe.each(VECTOR_CLASSES)('sanitizeHtml on %s', (vectorClass) => {
	const vectors = HOSTILE_HTML.filter((v) => v.class === vectorClass);
	it.each(vectors.map((v) => [v.title, v] as [string, HostileVector]))('%s', (_title, v) => {
		const { html } = sanitizeHtml(v.payload);
		expect(problems(html)).toEqual([]);
		expect(leaks(html)).toEqual([]);
		// Idempotent: a second pass changes nothing, so the stored hash is stable.
		expect(sanitizeHtml(html).html).toBe(html);
	});
});

describe('sanitizeHtml on particular attacks', () => {
	it('keeps the text of a removed wrapper but drops script content', () => {
		const { html } = sanitizeHtml('<font>kept</font><script>dropped()</script>');
		expect(html).toBe('kept');
	});

	it('drops relative links, which would point into the portal', () => {
		expect(sanitizeHtml('<a href="/rep/login">x</a>').html).toBe('<a>x</a>');
	});

	it('makes a web link open in a new tab with no handle on the signing page', () => {
		expect(
			sanitizeHtml('<a href="https://evil.example/" target="_top" rel="opener">x</a>').html
		).toBe('<a href="https://evil.example/" rel="noopener noreferrer" target="_blank">x</a>');
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
