import fontkit from '@pdf-lib/fontkit';
import {
	PDFDict,
	PDFDocument,
	PDFName,
	PDFRawStream,
	StandardFonts,
	decodePDFRawStream,
	degrees,
	rgb,
	type PDFFont,
	type PDFPage,
	type RGB
} from 'pdf-lib';
import QRCode from 'qrcode';
import { sanitizeWinAnsi, wrapText } from '$lib/server/pdf/document';
import { sanitizeForFont, SPELLED_OUT } from '$lib/server/pdf/text';
// Inlined into the server bundle, so the built app needs no file beside it.
import scriptFontUrl from './fonts/DancingScript-Regular.otf?inline';
import notoBoldUrl from './fonts/NotoSans-Bold.ttf?inline';
import notoRegularUrl from './fonts/NotoSans-Regular.ttf?inline';

/**
 * A small layout kit for the evidence documents: US Letter pages, a y cursor with page breaks,
 * wrapped text at any x and width, key–value rows, ruled tables, a QR code, and the signer's
 * name drawn in a script font. Text stays real text (extractable, searchable). Standard fonts
 * encode only Windows-1252, so text goes through `sanitizeWinAnsi`; the script font (Dancing
 * Script, SIL Open Font License, `fonts/OFL.txt`) draws what it has glyphs for.
 *
 * A document whose facts hold letters Windows-1252 lacks (Łukasz, Nguyễn, Олег, Γιώργος: see
 * `needsUnicode`) also embeds Noto Sans (SIL Open Font License, `fonts/NotoSans-OFL.txt`), subset
 * to the glyphs drawn, and each text that has such a letter is drawn in it, so a name is printed
 * as the signer typed it rather than as "?" or without its accents. Other documents are as
 * before, with no font embedded but the script. Scripts Noto Sans lacks (Chinese, Arabic,
 * Hebrew…) still become "?".
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

const fontBytes = (dataUrl: string) =>
	Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
const SCRIPT_FONT = fontBytes(scriptFontUrl);
const NOTO = { regular: fontBytes(notoRegularUrl), bold: fontBytes(notoBoldUrl) };

/** Noto Sans's coverage (the bold face has the same), read once. */
let notoFace: ReturnType<typeof fontkit.create> | undefined;
const notoHas = (cp: number) =>
	(notoFace ??= fontkit.create(NOTO.regular)).hasGlyphForCodePoint(cp);

/** Whether Noto Sans draws some character of `text` that the standard fonts would change. */
const wantsNoto = (text: string) => sanitizeForFont(text, notoHas) !== sanitizeWinAnsi(text);

/**
 * Whether any text in `facts` (its strings, however deep) needs Noto Sans: a document made from
 * them passes this to `Sheet.create` or `Sheet.on`.
 */
export function needsUnicode(facts: unknown): boolean {
	if (typeof facts === 'string') return wantsNoto(facts);
	if (facts === null || typeof facts !== 'object' || ArrayBuffer.isView(facts)) return false;
	return Object.values(facts).some(needsUnicode);
}

export interface Style {
	size?: number;
	font?: 'regular' | 'bold' | 'mono';
	color?: RGB;
	/** Line height as a multiple of the size. */
	leading?: number;
}

/** A label of keyValuesAt's rows: drawn and measured alike. */
const KEY_LABEL: Style = { color: COLOR.muted, size: 8.5 };

export interface Column {
	title: string;
	width: number;
	style?: Style;
}

/**
 * Labels the script face's font for what it is. pdf-lib asks fontkit for a `cff` property
 * fontkit does not have, so it embeds a CFF-flavoured OpenType font as TrueType (a CIDFontType2
 * over FontFile2): readers that look inside (poppler: "Mismatch between font type and embedded
 * font file") warn on every page, and a stricter one could refuse the font. The whole OpenType
 * file belongs in FontFile3 labelled `OpenType`, under a CIDFontType0, whose CIDs are the font's
 * glyph ids without a CIDToGIDMap (ISO 32000-1, 9.7.4.2 and Table 126). Only a font file that
 * begins as CFF OpenType ("OTTO") is moved: the Noto faces are TrueType, and the service's own
 * pages in the signed copy keep theirs. pdf-lib has no option for it, hence this, once every page
 * is drawn and before the document is saved (documents.ts, seal).
 */
export async function labelOpenTypeFonts(pdf: PDFDocument): Promise<void> {
	await pdf.flush();
	const name = (n: string) => PDFName.of(n);
	for (const [, obj] of pdf.context.enumerateIndirectObjects()) {
		if (!(obj instanceof PDFDict) || obj.get(name('Subtype')) !== name('CIDFontType2')) continue;
		const descriptor = obj.lookup(name('FontDescriptor'));
		const file = descriptor instanceof PDFDict ? descriptor.lookup(name('FontFile2')) : undefined;
		if (!(file instanceof PDFRawStream)) continue;
		const head = decodePDFRawStream(file).decode().subarray(0, 4);
		if (String.fromCharCode(...head) !== 'OTTO') continue;
		const d = descriptor as PDFDict;
		d.set(name('FontFile3'), d.get(name('FontFile2'))!);
		d.delete(name('FontFile2'));
		file.dict.set(name('Subtype'), name('OpenType'));
		obj.set(name('Subtype'), name('CIDFontType0'));
		obj.delete(name('CIDToGIDMap'));
	}
}

export class Sheet {
	page!: PDFPage;
	y = 0;
	private constructor(
		readonly pdf: PDFDocument,
		readonly fonts: Record<'regular' | 'bold' | 'mono' | 'script', PDFFont>,
		private readonly scriptGlyphs: (cp: number) => boolean,
		/** Noto Sans, for the texts the standard fonts would change (see `needsUnicode`). */
		private readonly noto: Record<'regular' | 'bold', PDFFont> | undefined
	) {
		this.newPage();
	}

	static async create(
		meta: { title: string; subject: string; date: Date },
		opts: { unicode?: boolean } = {}
	): Promise<Sheet> {
		const pdf = await PDFDocument.create();
		pdf.registerFontkit(fontkit);
		// The document's properties are UTF-16 text, shown by the reader whatever the fonts: only
		// control and invisible characters go.
		const property = (text: string) => sanitizeForFont(text, () => true);
		pdf.setTitle(property(meta.title));
		pdf.setSubject(property(meta.subject));
		pdf.setCreator('signing-portal');
		pdf.setProducer('signing-portal (pdf-lib)');
		pdf.setCreationDate(meta.date);
		pdf.setModificationDate(meta.date);
		return Sheet.on(pdf, opts);
	}

	/** A sheet that adds its pages to an existing document (the signed copy's last page). */
	static async on(pdf: PDFDocument, opts: { unicode?: boolean } = {}): Promise<Sheet> {
		pdf.registerFontkit(fontkit);
		const script = fontkit.create(SCRIPT_FONT);
		// Subset: a document carries only the glyphs it draws (a few KB, not 190 KB a face). The
		// files have no layout tables, so each letter is one glyph and the text extracts as drawn
		// (with Google's, "ị" in "Thị" made every later "i" extract as "ị").
		const noto = async (bytes: Buffer) => pdf.embedFont(bytes, { subset: true });
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
			(cp) => script.hasGlyphForCodePoint(cp),
			opts.unicode ? { regular: await noto(NOTO.regular), bold: await noto(NOTO.bold) } : undefined
		);
	}

	/** The font `text` is drawn in: Noto Sans where it draws what the standard font would change. */
	private fontFor(text: string, style: Style): PDFFont {
		const font = style.font ?? 'regular';
		if (this.noto && wantsNoto(text)) return this.noto[font === 'bold' ? 'bold' : 'regular'];
		return this.fonts[font];
	}

	/** Whether a character was spelled out by its code point anywhere (see footers). */
	private spelledOut = false;

	/** `text` as `font` can draw it. */
	private drawable(text: string, font: PDFFont): string {
		const drawn =
			this.noto && (font === this.noto.regular || font === this.noto.bold)
				? sanitizeForFont(text, notoHas)
				: sanitizeWinAnsi(text);
		if (!this.spelledOut && SPELLED_OUT.test(drawn) && !SPELLED_OUT.test(text)) {
			this.spelledOut = true;
		}
		return drawn;
	}

	newPage(): void {
		this.page = this.pdf.addPage([PAGE.width, PAGE.height]);
		this.y = PAGE.height - MARGIN.top;
	}

	/** Starts a new page unless `height` still fits above the footer. */
	ensure(height: number): void {
		if (this.y - height < MARGIN.bottom) this.newPage();
	}

	lines(
		text: string,
		width: number,
		style: Style = {},
		font = this.fontFor(text, style)
	): string[] {
		return wrapText(this.drawable(text, font), font, style.size ?? 9, width);
	}

	lineHeight(style: Style = {}): number {
		return (style.size ?? 9) * (style.leading ?? 1.32);
	}

	/** The height `text` takes wrapped to `width`, as textAt draws it. */
	textHeight(text: string, width: number, style: Style = {}): number {
		return this.lines(text, width, style).length * this.lineHeight(style);
	}

	/**
	 * Wrapped text from the cursor down at x; returns the height used. Does not break pages. The
	 * font is the one `text` needs, unless given (a paragraph's lines are drawn in its font).
	 */
	textAt(
		text: string,
		x: number,
		width: number,
		style: Style = {},
		top = this.y,
		font = this.fontFor(text, style)
	): number {
		const size = style.size ?? 9;
		const lh = this.lineHeight(style);
		const lines = this.lines(text, width, style, font);
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
		const font = this.fontFor(text, style);
		for (const line of this.lines(text, CONTENT_WIDTH, style, font)) {
			this.ensure(lh);
			this.textAt(line, MARGIN.x, CONTENT_WIDTH, style, this.y, font);
			this.y -= lh;
		}
		this.y -= after;
	}

	/** A page's small capitals line, and its title under it (`size`), from the cursor down. */
	title(eyebrow: string, title: string, size: number, width = CONTENT_WIDTH): void {
		this.textAt(eyebrow, MARGIN.x, width, { size: 7.5, font: 'bold', color: COLOR.muted });
		this.y -= 12;
		this.textAt(title, MARGIN.x, width, { size, font: 'bold', color: COLOR.navy });
		this.y -= size + 7;
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
			const labelH = this.textAt(row.label, x, labelWidth - 6, KEY_LABEL, top);
			const valueX = x + labelWidth;
			const valueH = row.draw
				? row.draw(top)
				: this.textAt(row.value || '-', valueX, width - labelWidth, row.style ?? {}, top);
			top -= Math.max(labelH, valueH) + gap;
		}
		return this.y - top;
	}

	/**
	 * keyValuesAt's rows across the page from the cursor, which moves down past them: a row that
	 * does not fit above the footer starts a new page (a long name, many attached files).
	 */
	keyValues(
		rows: ReadonlyArray<{ label: string; value: string; style?: Style }>,
		labelWidth: number
	): void {
		const width = CONTENT_WIDTH - labelWidth;
		for (const row of rows) {
			const label = this.textHeight(row.label, labelWidth - 6, KEY_LABEL);
			this.ensure(Math.max(label, this.textHeight(row.value || '-', width, row.style ?? {})));
			this.y -= this.keyValuesAt([row], MARGIN.x, CONTENT_WIDTH, labelWidth);
		}
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
				return this.textHeight(cell, c.width - 8, c.style);
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

	/**
	 * Characters the script font lacks become their Windows-1252 look-alike or their code point
	 * (see sanitizeForFont), and any left that it still lacks "?".
	 */
	scriptText(text: string): string {
		return [...sanitizeForFont(text, this.scriptGlyphs)]
			.map((c) => (c === '\n' || this.scriptGlyphs(c.codePointAt(0) ?? 0) ? c : '?'))
			.join('');
	}

	/**
	 * The typed signature on a signature line, in the script font; returns the height used. A
	 * signature with a letter the script font lacks that Noto Sans has (Ł, ễ, Cyrillic, Greek) is
	 * drawn in Noto Sans, slanted, rather than with that letter changed.
	 */
	signature(text: string, x: number, top: number, width: number, size = 22): number {
		const { font, s, lines } = this.signatureLines(text, width, size);
		let baseline = top - s * 1.05;
		lines.forEach((line, i) => {
			if (i > 0) baseline -= s * 1.2;
			this.page.drawText(line, {
				x: x + 4,
				y: baseline,
				size: s,
				font,
				color: COLOR.navy,
				...(font === this.fonts.script ? {} : { ySkew: degrees(12) })
			});
		});
		this.rule(x, width, COLOR.muted, 0.6, baseline - s * 0.3);
		return top - baseline + s * 0.4 + 2;
	}

	/** The height `signature` takes for `text`, to size what is drawn under it first. */
	signatureHeight(text: string, width: number, size = 22): number {
		const { s, lines } = this.signatureLines(text, width, size);
		return s * 1.05 + (lines.length - 1) * s * 1.2 + s * 0.4 + 2;
	}

	/** The signature's font, size and lines, as `signature` draws them. */
	private signatureLines(text: string, width: number, size: number) {
		let s = size;
		let drawn = this.scriptText(text);
		let font = this.fonts.script;
		if (this.noto && this.drawable(text, this.noto.regular) !== drawn) {
			font = this.noto.regular;
			drawn = this.drawable(text, font);
			s = Math.round(size * 0.8);
		}
		while (s > 10 && font.widthOfTextAtSize(drawn, s) > width) s -= 1;
		// Still too wide at the smallest size (a long name): on as many lines as it takes, rather
		// than past the column's edge or the page's.
		return { font, s, lines: wrapText(drawn, font, s, width - 4) };
	}

	/**
	 * Footer line on every page from `first` on (up to `end`, if given), and "Page n of m" counted
	 * within those pages: a part of a document numbers its own pages, as the service's application
	 * PDF at the start of a signed copy does (a part of one page has no number).
	 */
	footers(text: string, first = 0, end?: number): void {
		const part = this.pdf.getPages().slice(first, end);
		const size = 7;
		const font = this.fontFor(text, {});
		part.forEach((p, i) => {
			const number = part.length > 1 ? `Page ${i + 1} of ${part.length}` : '';
			const numberWidth = this.fonts.regular.widthOfTextAtSize(number, size);
			const line =
				wrapText(this.drawable(text, font), font, size, CONTENT_WIDTH - numberWidth - 16)[0] ?? '';
			p.drawLine({
				start: { x: MARGIN.x, y: 40 },
				end: { x: PAGE.width - MARGIN.x, y: 40 },
				thickness: 0.5,
				color: COLOR.rule
			});
			p.drawText(line, { x: MARGIN.x, y: 29, size, font, color: COLOR.muted });
			p.drawText(number, {
				x: PAGE.width - MARGIN.x - numberWidth,
				y: 29,
				size,
				font: this.fonts.regular,
				color: COLOR.muted
			});
			// Said on every page, since the reader may meet one on any of them.
			if (this.spelledOut) {
				p.drawText(
					'[U+…]: a character the document’s fonts can’t show, written as its Unicode code point.',
					{ x: MARGIN.x, y: 19, size: 6.5, font: this.fonts.regular, color: COLOR.muted }
				);
			}
		});
	}
}
