import { describe, expect, it } from 'vitest';
import { agreementBlocks, blocksText } from './agreement';

describe('the agreement as text', () => {
	it('keeps headings, paragraphs and list items in order, numbered as shown', () => {
		expect(
			agreementBlocks(
				'<h3>Guaranty</h3><p>The <strong>Guarantor</strong>\n  agrees.</p><ol start="3"><li>First</li><li>Second<ul><li>Inner</li></ul></li></ol><hr>Loose text'
			)
		).toEqual([
			{ kind: 'heading', text: 'Guaranty' },
			{ kind: 'text', text: 'The Guarantor agrees.' },
			{ kind: 'item', marker: '3.', depth: 0, text: 'First' },
			{ kind: 'item', marker: '4.', depth: 0, text: 'Second' },
			{ kind: 'item', marker: '•', depth: 1, text: 'Inner' },
			{ kind: 'rule' },
			{ kind: 'text', text: 'Loose text' }
		]);
	});

	it('writes a link’s address after its words, unless the words are the address', () => {
		expect(
			agreementBlocks(
				'<p>Write to <a href="mailto:help@x.example">help@x.example</a> or see <a href="https://x.example/rules">the rules</a>.</p>'
			)
		).toEqual([
			{ kind: 'text', text: 'Write to help@x.example or see the rules (https://x.example/rules).' }
		]);
	});

	it('keeps line breaks, and reads a table with or without a header row', () => {
		expect(agreementBlocks('<p>One<br>Two</p>')).toEqual([{ kind: 'text', text: 'One\nTwo' }]);
		expect(
			agreementBlocks(
				'<table><thead><tr><th>Fee</th><th>Amount</th></tr></thead><tbody><tr><td>Monthly</td><td>$9.95</td></tr><tr><td>Short</td></tr></tbody></table>'
			)
		).toEqual([
			{
				kind: 'table',
				head: ['Fee', 'Amount'],
				rows: [
					['Monthly', '$9.95'],
					['Short', '']
				]
			}
		]);
		expect(agreementBlocks('<table><tr><td>a</td><td>b</td></tr></table>')).toEqual([
			{ kind: 'table', head: null, rows: [['a', 'b']] }
		]);
	});

	it('gives every word drawn, for the choice of font', () => {
		const blocks = agreementBlocks(
			'<h4>Ünïcode ≥</h4><ul><li>Łódź</li></ul><table><tr><td>Ω</td></tr></table>'
		);
		expect(blocksText(blocks)).toEqual(['Ünïcode ≥', '• Łódź', 'Ω']);
	});

	it('is empty for empty or whitespace-only HTML', () => {
		expect(agreementBlocks('')).toEqual([]);
		expect(agreementBlocks(' <p> </p> ')).toEqual([]);
	});
});
