import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTENT_WIDTH, MARGIN, Sheet, labelOpenTypeFonts } from './layout';

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
