import { JSDOM } from 'jsdom';
import { render } from 'svelte/server';
import { afterEach, describe, expect, it } from 'vitest';
import TermsSections from '../routes/sign/TermsSections.svelte';
import { drawnHtml } from './terms-section';

const sections = [
	{
		key: 'TermsAndConditions',
		title: 'Terms and Conditions',
		html: '<h3>Fees &amp; charges</h3>\n<p>Settled in <strong>2</strong> days.</p>\n<table><thead><tr><th>Fee</th></tr></thead><tbody><tr><td>2.9% + $0.30</td></tr></tbody></table>'
	},
	{ key: 'PaymentReceipt', title: 'Payment Receipt', html: '<p>Second “section” — its own.</p>' }
];

const global = globalThis as { document?: Document };
afterEach(() => {
	delete global.document;
});

describe('the agreement read back from the page the server drew', () => {
	it('is the HTML each section was drawn with, section by section', () => {
		const { body } = render(TermsSections, { props: { sections } });
		global.document = new JSDOM(`<!doctype html><body>${body}</body>`).window.document;
		for (const s of sections) expect(drawnHtml(s.key)).toBe(s.html);
	});

	it('says to reload, never blank, when the page no longer holds the section', () => {
		global.document = new JSDOM('<!doctype html><body><p>Changed</p></body>').window.document;
		expect(drawnHtml('TermsAndConditions')).toBe(
			'<p>This part of the agreement could not be shown: reload the page to read it.</p>'
		);
	});
});
