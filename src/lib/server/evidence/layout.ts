import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';
import QRCode from 'qrcode';
import { sanitizeWinAnsi, wrapText } from '$lib/server/pdf/document';
// Inlined into the server bundle, so the built app needs no file beside it.
import scriptFontUrl from './fonts/DancingScript-Regular.otf?inline';

/**
 * A small layout kit for the evidence documents: US Letter pages, a y cursor with page breaks,
 * wrapped text at any x and width, key–value rows, ruled tables, a QR code, and the signer's
 * name drawn in a script font. Text stays real text (extractable, searchable). Standard fonts
 * encode only Windows-1252, so text goes through `sanitizeWinAnsi`; the script font (Dancing
 * Script, SIL Open Font License, `fonts/OFL.txt`) draws what it has glyphs for.
 */

export const PAGE = { width: 612, height: 792 };
export const MARGIN = { x: 46, top: 44, bottom: 52 };
export const CONTENT_WIDTH = PAGE.width - 2 * MARGIN.x;

export const COLOR = {
	ink: rgb(0.1, 0.11, 0.13),
	muted: rgb(0.37, 0.39, 0.42),
	rule: rgb(0.8, 0.82, 0.85),
	panel: rgb(0.955, 0.962, 0.972),
	navy: rgb(0.1, 0.22, 0.38),
	good: rgb(0.09, 0.42, 0.23),
	bad: rgb(0.6, 0.2, 0.05),
	white: rgb(1, 1, 1)
};

const SCRIPT_FONT = Buffer.from(scriptFontUrl.slice(scriptFontUrl.indexOf(',') + 1), 'base64');

export interface Style {
	size?: number;
	font?: 'regular' | 'bold' | 'mono';
	color?: RGB;
	/** Line height as a multiple of the size. */
	leading?: number;
}

export interface Column {
	title: string;
	width: number;
	style?: Style;
}

export class Sheet {
	page!: PDFPage;
	y = 0;
	private constructor(
		readonly pdf: PDFDocument,
		readonly fonts: Record<'regular' | 'bold' | 'mono' | 'script', PDFFont>,
		private readonly scriptGlyphs: (cp: number) => boolean
	) {
		this.newPage();
	}

	static async create(meta: { title: string; subject: string; date: Date }): Promise<Sheet> {
		const pdf = await PDFDocument.create();
		pdf.registerFontkit(fontkit);
		pdf.setTitle(sanitizeWinAnsi(meta.title));
		pdf.setSubject(sanitizeWinAnsi(meta.subject));
		pdf.setCreator('signing-portal');
		pdf.setProducer('signing-portal (pdf-lib)');
		pdf.setCreationDate(meta.date);
		pdf.setModificationDate(meta.date);
		return Sheet.on(pdf);
	}

	/** A sheet that adds its pages to an existing document (the signed copy's last page). */
	static async on(pdf: PDFDocument): Promise<Sheet> {
		pdf.registerFontkit(fontkit);
		const script = fontkit.create(SCRIPT_FONT);
		return new Sheet(
			pdf,
			{
				regular: await pdf.embedFont(StandardFonts.Helvetica),
				bold: await pdf.embedFont(StandardFonts.HelveticaBold),
				mono: await pdf.embedFont(StandardFonts.Courier),
				// Whole, not subset: fontkit's subsetting of this CFF font gives a file readers reject.
				// Without its ligatures: pdf-lib drew the font's "or" ligature with a gap after it
				// ("Gor don Mor ris") and left the two letters out of the PDF's text.
				script: await pdf.embedFont(SCRIPT_FONT, { features: { liga: false } })
			},
			(cp) => script.hasGlyphForCodePoint(cp)
		);
	}

	newPage(): void {
		this.page = this.pdf.addPage([PAGE.width, PAGE.height]);
		this.y = PAGE.height - MARGIN.top;
	}

	/** Starts a new page unless `height` still fits above the footer. */
	ensure(height: number): void {
		if (this.y - height < MARGIN.bottom) this.newPage();
	}

	lines(text: string, width: number, style: Style = {}): string[] {
		return wrapText(
			sanitizeWinAnsi(text),
			this.fonts[style.font ?? 'regular'],
			style.size ?? 9,
			width
		);
	}

	lineHeight(style: Style = {}): number {
		return (style.size ?? 9) * (style.leading ?? 1.32);
	}

	/** Wrapped text from the cursor down at x; returns the height used. Does not break pages. */
	textAt(text: string, x: number, width: number, style: Style = {}, top = this.y): number {
		const size = style.size ?? 9;
		const lh = this.lineHeight(style);
		const font = this.fonts[style.font ?? 'regular'];
		const lines = this.lines(text, width, style);
		lines.forEach((line, i) => {
			if (line === '') return;
			this.page.drawText(line, {
				x,
				y: top - size - i * lh,
				size,
				font,
				color: style.color ?? COLOR.ink
			});
		});
		return lines.length * lh;
	}

	/** Full-width wrapped text that may run over pages. */
	paragraph(text: string, style: Style = {}, after = 4): void {
		const lh = this.lineHeight(style);
		for (const line of this.lines(text, CONTENT_WIDTH, style)) {
			this.ensure(lh);
			this.textAt(line, MARGIN.x, CONTENT_WIDTH, style);
			this.y -= lh;
		}
		this.y -= after;
	}

	/** A section heading with a rule, kept with `keep` points of what follows. */
	heading(text: string, keep = 60): void {
		this.ensure(26 + keep);
		this.y -= 8;
		this.textAt(text.toUpperCase(), MARGIN.x, CONTENT_WIDTH, {
			size: 8.5,
			font: 'bold',
			color: COLOR.navy
		});
		this.y -= 13;
		this.rule(MARGIN.x, CONTENT_WIDTH, COLOR.navy, 0.8);
		this.y -= 4;
	}

	rule(x: number, width: number, color = COLOR.rule, thickness = 0.5, y = this.y): void {
		this.page.drawLine({ start: { x, y }, end: { x: x + width, y }, thickness, color });
	}

	/**
	 * Label/value rows in a column at x; returns the height used (no page breaks: callers
	 * `ensure` first). A value may be drawn by `draw` instead of as text.
	 */
	keyValuesAt(
		rows: ReadonlyArray<{
			label: string;
			value: string;
			style?: Style;
			draw?: (top: number) => number;
		}>,
		x: number,
		width: number,
		labelWidth: number,
		gap = 3.5
	): number {
		let top = this.y;
		for (const row of rows) {
			const labelH = this.textAt(
				row.label,
				x,
				labelWidth - 6,
				{ color: COLOR.muted, size: 8.5 },
				top
			);
			const valueX = x + labelWidth;
			const valueH = row.draw
				? row.draw(top)
				: this.textAt(row.value || '-', valueX, width - labelWidth, row.style ?? {}, top);
			top -= Math.max(labelH, valueH) + gap;
		}
		return this.y - top;
	}

	/** A ruled table with a header row; rows may run over pages (the header is repeated). */
	table(columns: Column[], rows: string[][], opts: { rowGap?: number } = {}): void {
		const gap = opts.rowGap ?? 3;
		const header = () => {
			let x = MARGIN.x;
			const h = this.lineHeight({ size: 7.5 });
			for (const c of columns) {
				this.textAt(c.title, x, c.width - 6, { size: 7.5, font: 'bold', color: COLOR.muted });
				x += c.width;
			}
			this.y -= h + 2;
			this.rule(MARGIN.x, CONTENT_WIDTH);
			this.y -= gap;
		};
		header();
		for (const row of rows) {
			const heights = row.map((cell, i) => {
				const c = columns[i]!;
				return this.lines(cell, c.width - 8, c.style).length * this.lineHeight(c.style);
			});
			const h = Math.max(...heights);
			if (this.y - h - gap < MARGIN.bottom) {
				this.newPage();
				header();
			}
			let x = MARGIN.x;
			row.forEach((cell, i) => {
				const c = columns[i]!;
				this.textAt(cell, x, c.width - 8, c.style);
				x += c.width;
			});
			this.y -= h + gap;
			this.rule(MARGIN.x, CONTENT_WIDTH, COLOR.panel);
			this.y -= gap;
		}
	}

	/**
	 * The verify QR code in the page's top-right corner with its caption; returns the lowest point
	 * it reaches, for the text beside it to clear.
	 */
	verifyQr(url: string, size: number): number {
		const top = PAGE.height - MARGIN.top + 2;
		const x = PAGE.width - MARGIN.x - size;
		this.qr(url, x, top, size);
		this.textAt('Scan to verify', x, size, { size: 6.5, color: COLOR.muted }, top - size - 2);
		return top - size - 12;
	}

	/** A QR code of `text`, `size` points square, its top-left corner at (x, top). */
	qr(text: string, x: number, top: number, size: number): void {
		const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
		const cell = size / modules.size;
		for (let r = 0; r < modules.size; r++) {
			let run = -1;
			for (let c = 0; c <= modules.size; c++) {
				const dark = c < modules.size && modules.get(r, c);
				if (dark && run < 0) run = c;
				if (!dark && run >= 0) {
					this.page.drawRectangle({
						x: x + run * cell,
						y: top - (r + 1) * cell,
						width: (c - run) * cell,
						height: cell,
						color: COLOR.ink
					});
					run = -1;
				}
			}
		}
	}

	/** Characters the script font lacks become their Windows-1252 look-alike, else "?". */
	scriptText(text: string): string {
		let out = '';
		for (const ch of text.normalize('NFC')) {
			const cp = ch.codePointAt(0) ?? 0;
			if (this.scriptGlyphs(cp)) out += ch;
			else
				out += [...sanitizeWinAnsi(ch)]
					.map((c) => (this.scriptGlyphs(c.codePointAt(0) ?? 0) ? c : '?'))
					.join('');
		}
		return out;
	}

	/** The typed signature in the script font on a signature line; returns the height used. */
	signature(text: string, x: number, top: number, width: number, size = 22): number {
		let s = size;
		const drawn = this.scriptText(text);
		while (s > 10 && this.fonts.script.widthOfTextAtSize(drawn, s) > width) s -= 1;
		const baseline = top - s * 1.05;
		this.page.drawText(drawn, {
			x: x + 4,
			y: baseline,
			size: s,
			font: this.fonts.script,
			color: COLOR.navy
		});
		this.rule(x, width, COLOR.muted, 0.6, baseline - s * 0.3);
		return s * 1.45 + 2;
	}

	/** Footer line and "Page n of m" on every page from `first` on. */
	footers(text: string, first = 0): void {
		const all = this.pdf.getPages();
		const size = 7;
		all.slice(first).forEach((p, i) => {
			const number = `Page ${first + i + 1} of ${all.length}`;
			const numberWidth = this.fonts.regular.widthOfTextAtSize(number, size);
			const line =
				wrapText(
					sanitizeWinAnsi(text),
					this.fonts.regular,
					size,
					CONTENT_WIDTH - numberWidth - 16
				)[0] ?? '';
			p.drawLine({
				start: { x: MARGIN.x, y: 40 },
				end: { x: PAGE.width - MARGIN.x, y: 40 },
				thickness: 0.5,
				color: COLOR.rule
			});
			p.drawText(line, { x: MARGIN.x, y: 29, size, font: this.fonts.regular, color: COLOR.muted });
			p.drawText(number, {
				x: PAGE.width - MARGIN.x - numberWidth,
				y: 29,
				size,
				font: this.fonts.regular,
				color: COLOR.muted
			});
		});
	}
}
