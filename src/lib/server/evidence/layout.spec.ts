import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFArray, PDFDocument, decodePDFRawStream, type PDFRawStream } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTENT_WIDTH, MARGIN, Sheet, labelOpenTypeFonts, needsUnicode } from './layout';

const dir = mkdtempSync(join(tmpdir(), 'layout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the typed signature in the script font', () => {
	it('is drawn as typed, and the PDF’s text holds every letter of it', async () => {
		// Names with "or" (the script font's ligature), capitals, accents and a lone lower case.
		const names = ['Gordon Morris', 'marcus  ortega', 'Dorothy Norton', 'Zoë Fortier'];
		const sheet = await Sheet.create({ title: 'Signatures', subject: 'test', date: new Date() });
		let top = sheet.y;
		for (const name of names) {
			top -= sheet.signature(name, MARGIN.x, top, CONTENT_WIDTH / 2);
		}
		await labelOpenTypeFonts(sheet.pdf);
		const file = join(dir, 'signatures.pdf');
		writeFileSync(file, await sheet.pdf.save());
		const read = spawnSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' });
		const lines = read.stdout.split('\n').map((l) => l.replace(/\s+/g, ' ').trim());
		for (const name of names) expect(lines).toContain(name.replace(/\s+/g, ' '));
		// The face's whole OpenType file, labelled so: poppler read it without a warning (pdf-lib
		// alone labels it TrueType, and poppler says "Mismatch between font type and embedded font
		// file" at every page).
		expect(read.stderr).toBe('');
		const fonts = spawnSync('pdffonts', [file], { encoding: 'utf8' });
		expect(fonts.stderr).toBe('');
		expect(fonts.stdout).toMatch(/DancingScript\S*\s+CID Type 0C \(OT\)\s+Identity-H\s+yes/);
	});
});

describe('a long typed signature', () => {
	it('stays inside its column, on more lines, and loses no letter', async () => {
		const name = 'Anastasia Maximiliana Konstantinopoulou-Øresund '.repeat(4).trim();
		const sheet = await Sheet.create({ title: 'Signatures', subject: 'test', date: new Date() });
		const width = CONTENT_WIDTH / 3;
		const top = sheet.y;
		const height = sheet.signature(name, MARGIN.x, top, width);
		expect(height).toBeGreaterThan(30);
		const file = join(dir, 'long-signature.pdf');
		writeFileSync(file, await sheet.pdf.save());
		const boxes = spawnSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' }).stdout;
		const words = [
			...boxes.matchAll(
				/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g
			)
		];
		expect(words.length).toBeGreaterThan(10);
		for (const [, , , xMax] of words)
			expect(Number(xMax)).toBeLessThanOrEqual(MARGIN.x + width + 1);
		expect(words.map((w) => w[5]).join(' ')).toBe(name);
	});
});

describe('Arabic and Hebrew', () => {
	/** The page's words as poppler reads them off the page: left to right, letters as drawn. */
	const wordsOn = (file: string) =>
		[
			...spawnSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' }).stdout.matchAll(
				/<word [^>]*>([^<]*)<\/word>/g
			)
		].map((m) => m[1]);
	/** A right-to-left word as it lies on the page, first letter rightmost. */
	const seen = (word: string) => [...word].reverse().join('');
	/**
	 * The first page's text-showing operators in the order drawn, each as its glyph ids (four hex
	 * digits in the embedded faces, two a letter in Helvetica).
	 */
	const shownOn = async (file: string) => {
		const page = (await PDFDocument.load(readFileSync(file))).getPage(0);
		const contents = page.node.Contents();
		const stream = contents instanceof PDFArray ? contents.lookup(0) : contents;
		const ops = decodePDFRawStream(stream as PDFRawStream).decode();
		return [...new TextDecoder('latin1').decode(ops).matchAll(/<([0-9A-F]+)> Tj/g)].map((m) =>
			m[1]!.match(/.{1,4}/g)!
		);
	};
	const draw = async (name: string, texts: string[], more?: (sheet: Sheet) => void) => {
		const sheet = await Sheet.create(
			{ title: 'Scripts', subject: 'test', date: new Date() },
			{ unicode: needsUnicode(texts) }
		);
		for (const text of texts) sheet.paragraph(text, { size: 14 });
		more?.(sheet);
		await labelOpenTypeFonts(sheet.pdf);
		const file = join(dir, name);
		writeFileSync(file, await sheet.pdf.save());
		return file;
	};

	it('are drawn in their own faces, in the order a reader sees them, and only when present', async () => {
		const texts = [
			'Signed by محمد حسن (owner) on 8 December.',
			'דוד כהן',
			'شركة النور 123',
			'رقم ١٢٣',
			'م ح م د'
		];
		const unicode = needsUnicode(texts);
		expect(unicode).toEqual({ noto: false, arabic: true, hebrew: true });
		expect(needsUnicode({ name: 'Łukasz', nested: ['Dana'] })).toEqual({
			noto: true,
			arabic: false,
			hebrew: false
		});
		const file = await draw('scripts.pdf', texts, (sheet) =>
			sheet.signature('محمد حسن', MARGIN.x, sheet.y, CONTENT_WIDTH / 2)
		);
		// Left to right: the English, then the Arabic name's last word before its first (the first
		// is rightmost, where a reader of Arabic starts), each word's letters right to left; digits
		// left to right wherever they are.
		expect(wordsOn(file)).toEqual([
			...['Signed', 'by', seen('حسن'), seen('محمد'), '(owner)', 'on', '8', 'December.'],
			...[seen('כהן'), seen('דוד')],
			...['123', seen('النور'), seen('شركة')],
			...['١٢٣', seen('رقم')],
			...['د', 'م', 'ح', 'م'],
			...[seen('حسن'), seen('محمد')]
		]);
		const fonts = spawnSync('pdffonts', [file], { encoding: 'utf8' });
		expect(fonts.stderr).toBe('');
		expect(fonts.stdout).toMatch(/NotoSansArabic-Regular\S*\s+CID TrueType\s+Identity-H\s+yes/);
		expect(fonts.stdout).toMatch(/NotoSansHebrew-Regular\S*\s+CID TrueType\s+Identity-H\s+yes/);
		expect(fonts.stdout).not.toContain('NotoSans-Regular');
		// Joined: the four letters of "محمد" drawn as one word are other glyphs (their initial,
		// medial and final forms) than the same letters drawn each alone, as an unshaped font draws
		// them. Of the page's text-showing operators: the first paragraph's "Signed by ", "حسن", " ",
		// "محمد"…; the lone letters are the last paragraph's, before the signature's three.
		const shown = await shownOn(file);
		const word = shown[3]!;
		expect(word).toHaveLength(4);
		const alone = shown
			.slice(-10, -3)
			.filter((glyphs) => glyphs[0]!.length === 4)
			.flat();
		expect(alone).toHaveLength(4);
		expect(word.filter((g) => alone.includes(g))).toEqual([]);
	});
	it('set a text of those scripts alone right to left, whole, and draw what is typed', async () => {
		const wrapped = 'العنوان شارع الملك فهد 12 الرياض';
		let width = 0;
		const file = await draw(
			'rtl-texts.pdf',
			[
				'تم التوقيع.',
				'12 شارع الملك فهد',
				// Presentation forms (as copied out of a PDF) are the letters they stand for.
				'ﻣﺤﻤﺪ',
				// Marks on nothing of their script: drawn, not a document that fails to be made.
				'a\u064e b محمد \u0651 x',
				// Hebrew's points go (see drawable): the letters alone.
				'שָׁלוֹם'
			],
			(sheet) => {
				// A column narrow enough that the number starts the second line.
				width = [...Array(50).keys()]
					.map((i) => 300 - i * 5)
					.find((w) => sheet.lines(wrapped, w, { size: 14 }).at(-1) === '12 الرياض')!;
				sheet.textAt(wrapped, MARGIN.x, width, { size: 14 });
			}
		);
		expect(width).toBeGreaterThan(0);
		expect(wordsOn(file)).toEqual([
			// The full stop after the last word, on its left; the number before the first, rightmost.
			...[`.${seen('التوقيع')}`, seen('تم')],
			...[seen('فهد'), seen('الملك'), seen('شارع'), '12'],
			seen('محمد'),
			...['a\u064e', 'b', seen('محمد'), '\u0651', 'x'],
			seen('שלום'),
			// Wrapped, the number is still the Arabic's: on its line's right, where that line starts.
			...[seen('فهد'), seen('الملك'), seen('شارع'), seen('العنوان')],
			...[seen('الرياض'), '12']
		]);
		// Both of the wrapped text's lines end at its column's right edge.
		const right = [
			...spawnSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' }).stdout.matchAll(
				/xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</g
			)
		]
			.filter((m) => m[2] === seen('العنوان') || m[2] === '12')
			.map((m) => Number(m[1]));
		expect(right).toHaveLength(3);
		for (const x of right.slice(1)) expect(Math.abs(x - (MARGIN.x + width))).toBeLessThan(1);
		// Persian's zero-width non-joiner keeps "می" apart from "خواهم": other glyphs than the word
		// written without it (where ی joins on).
		const persian = await shownOn(
			await draw('persian.pdf', ['می\u200cخواهم', 'میخواهم', 'Sam\u200cple'])
		);
		expect(persian[0]).not.toEqual(persian[1]);
		expect(persian[0]).toHaveLength(persian[1]!.length + 1);
		// …and one anywhere else (after a Latin letter) is dropped, not drawn.
		expect(persian[2]).toEqual(['5361', '6D70', '6C65']);
	});
});
