import { PDFDocument, StandardFonts } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { createTextPdf, formatValue, sanitizeWinAnsi } from './document';
import { sanitizeForFont } from './text';

async function pages(bytes: Uint8Array): Promise<string[]> {
	const proxy = await getDocumentProxy(new Uint8Array(bytes));
	const { text } = await extractText(proxy, { mergePages: false });
	return text;
}

describe('sanitizeWinAnsi', () => {
	it('keeps what WinAnsi encodes and maps or replaces the rest', () => {
		expect(sanitizeWinAnsi('Café “Crème” – 5 € ™')).toBe('Café “Crème” – 5 € ™');
		expect(sanitizeWinAnsi('Łódź Őrség')).toBe('Lódz Orség');
		expect(sanitizeWinAnsi('a\u200bb\u0007c\td')).toBe('abc d');
		expect(sanitizeWinAnsi('中文 🙂')).toBe('[U+4E2D U+6587] [U+1F642]');
		// An emoji's variation selector and joiner carry no text of their own.
		expect(sanitizeWinAnsi('Bake ❤\ufe0f 👩\u200d🍳!')).toBe('Bake [U+2764] [U+1F469 U+1F373]!');
		expect(sanitizeWinAnsi('x\r\ny\u2028z')).toBe('x\ny\nz');
		expect(sanitizeWinAnsi('ﬁne')).toBe('fine');
	});

	it('produces only characters the standard font can encode', async () => {
		const pdf = await PDFDocument.create();
		const font = await pdf.embedFont(StandardFonts.Helvetica);
		let all = '';
		for (let cp = 0; cp < 0x3000; cp++) {
			if (cp < 0xd800 || cp > 0xdfff) all += String.fromCodePoint(cp);
		}
		const clean = sanitizeWinAnsi(all).replace(/\n/g, '');
		expect(() => font.encodeText(clean)).not.toThrow();
	});
});

describe('sanitizeForFont', () => {
	// A font with Latin Extended and Cyrillic, and nothing of Chinese or the emoji.
	const has = (cp: number) => cp < 0x0530;
	it('keeps what the font has, and treats the rest as sanitizeWinAnsi does', () => {
		expect(sanitizeForFont('Łódź Őrség Олег', has)).toBe('Łódź Őrség Олег');
		expect(sanitizeForFont('Café “Crème” – 5 € ™', has)).toBe('Café “Crème” – 5 € ™');
		expect(sanitizeForFont('Nguyễn 中 🙂', has)).toBe('Nguyen [U+4E2D] [U+1F642]');
		// Spaces, control and invisible characters go as before, whatever the font claims.
		expect(sanitizeForFont('a\u200bb\u0007c\td\u00ade\u202ef', () => true)).toBe('abc def');
		expect(sanitizeForFont('x\r\ny\u2028z', has)).toBe('x\ny\nz');
	});
});

describe('createTextPdf', () => {
	it('lays out extractable text with page numbers and footers on every page', async () => {
		const doc = await createTextPdf({ title: 'Test document', footer: 'Footer line ✓' });
		doc.title('A title with ünïcödé and 中');
		doc.heading('First heading');
		doc.keyValue('Legal name', 'Blue Heron Bakery LLC');
		doc.keyValues([
			['Accepted', true],
			['Nothing', null],
			['Amount', 12.5]
		]);
		doc.bullets(['first bullet', 'second bullet']);
		doc.subheading('Sub');
		doc.paragraph('averyveryverylongwordthatcannotpossiblyfitononelineofthepage'.repeat(4), {
			mono: true
		});
		for (let i = 0; i < 120; i++) doc.paragraph(`Paragraph number ${i} with some words in it.`);
		const bytes = await doc.save();
		const text = await pages(bytes);
		expect(text.length).toBeGreaterThan(2);
		const n = text.length;
		text.forEach((t, i) => {
			expect(t).toContain(`Page ${i + 1} of ${n}`);
			expect(t).toContain('Footer line v');
		});
		const all = text.join('\n');
		expect(all).toContain('A title with ünïcödé and [U+4E2D]');
		expect(all).toContain('Blue Heron Bakery LLC');
		expect(all).toContain('Paragraph number 119');
		expect(all).toContain('second bullet');
		const loaded = await PDFDocument.load(bytes);
		expect(loaded.getTitle()).toBe('Test document');
		expect(loaded.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
	});

	it('formats values for key–value rows', () => {
		expect(formatValue(true)).toBe('Yes');
		expect(formatValue(false)).toBe('No');
		expect(formatValue(null)).toBe('');
		expect(formatValue(3)).toBe('3');
	});
});
