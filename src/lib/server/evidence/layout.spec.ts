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
		const sheet = await Sheet.create(
			{ title: 'Scripts', subject: 'test', date: new Date() },
			{ unicode }
		);
		for (const text of texts) sheet.paragraph(text, { size: 12 });
		sheet.signature('محمد حسن', MARGIN.x, sheet.y, CONTENT_WIDTH / 2);
		await labelOpenTypeFonts(sheet.pdf);
		const file = join(dir, 'scripts.pdf');
		writeFileSync(file, await sheet.pdf.save());
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
		// them. The page's text-showing operators in the order drawn, each as its glyph ids (four hex
		// digits in the embedded faces, two a letter in Helvetica): the first paragraph's "Signed by ",
		// "حسن", " ", "محمد"…; the lone letters are the last paragraph's, before the signature's three.
		const page = (await PDFDocument.load(readFileSync(file))).getPage(0);
		const contents = page.node.Contents();
		const stream = contents instanceof PDFArray ? contents.lookup(0) : contents;
		const ops = decodePDFRawStream(stream as PDFRawStream).decode();
		const shown = [...new TextDecoder('latin1').decode(ops).matchAll(/<([0-9A-F]+)> Tj/g)].map(
			(m) => m[1]!.match(/.{1,4}/g)!
		);
		const word = shown[3]!;
		expect(word).toHaveLength(4);
		const alone = shown
			.slice(-10, -3)
			.filter((glyphs) => glyphs[0]!.length === 4)
			.flat();
		expect(alone).toHaveLength(4);
		expect(word.filter((g) => alone.includes(g))).toEqual([]);
	});
});
