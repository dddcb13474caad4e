import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { sanitizeWinAnsi } from './text';

export { sanitizeWinAnsi } from './text';

/**
 * A tiny text-layout helper over pdf-lib: US Letter pages, standard fonts, a title, headings,
 * wrapped paragraphs, bullet lists and key–value rows, with automatic page breaks and, on
 * save, a footer line and "Page n of m" on every page. Text is extractable (real text, not
 * drawings). Every string is passed through `sanitizeWinAnsi`, because the standard fonts
 * can only encode Windows-1252 and pdf-lib throws on anything else.
 *
 * ```ts
 * const doc = await createTextPdf({ title: 'Signing certificate', footer: 'Application 50001' });
 * doc.title('Signing certificate');
 * doc.heading('Decision');
 * doc.keyValue('Decision ID', '81234');
 * doc.paragraph('Long text is wrapped to the page width and continues on a new page.');
 * doc.bullets(['one', 'two']);
 * const bytes: Uint8Array = await doc.save();
 * ```
 */
export interface TextPdfOptions {
	/** Document metadata title (also the default first line of the footer). */
	title: string;
	/** Text at the bottom left of every page; defaults to the title. */
	footer?: string;
	author?: string;
	subject?: string;
	/** Creation and modification date written to the metadata (default: now). */
	date?: Date;
}

export interface TextStyle {
	/** Font size in points (default 10). */
	size?: number;
	bold?: boolean;
	/** Courier: for hashes, ids and other text where each character matters. */
	mono?: boolean;
	/** Grey instead of black. */
	muted?: boolean;
}

export interface TextPdf {
	/** A large bold title line (wrapped if long). */
	title(text: string): void;
	/** A section heading; moves to a new page first when fewer than a few lines remain. */
	heading(text: string): void;
	/** A smaller heading inside a section. */
	subheading(text: string): void;
	/** Wrapped text; `\n` starts a new line, a blank line a new paragraph. */
	paragraph(text: string, style?: TextStyle): void;
	/** A bulleted list, each item wrapped with a hanging indent. */
	bullets(items: readonly string[], style?: TextStyle): void;
	/** A label (bold, left column) and its value (wrapped, right column). */
	keyValue(label: string, value: string | number | boolean | null | undefined): void;
	/** Several key–value rows. */
	keyValues(
		rows: ReadonlyArray<readonly [string, string | number | boolean | null | undefined]>
	): void;
	/** Vertical space in points. */
	space(points?: number): void;
	/** Starts a new page. */
	pageBreak(): void;
	/** Adds footers and page numbers, then serializes. Call once. */
	save(): Promise<Uint8Array>;
}

const PAGE_WIDTH = 612; // US Letter, 8.5 in × 72
const PAGE_HEIGHT = 792; // 11 in × 72
const MARGIN = 54; // 0.75 in
const FOOTER_ZONE = 36; // room kept at the bottom for the footer
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const LABEL_WIDTH = Math.round(CONTENT_WIDTH * 0.36);
const LABEL_GAP = 10;
const BLACK = rgb(0, 0, 0);
const GREY = rgb(0.38, 0.38, 0.38);
const RULE = rgb(0.75, 0.75, 0.75);

/** Formats a key–value value: empty for null/undefined, Yes/No for booleans. */
export function formatValue(value: string | number | boolean | null | undefined): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'boolean') return value ? 'Yes' : 'No';
	return String(value);
}

/**
 * Splits text into lines no wider than `width`; words longer than a line are cut. `font` is what
 * measures the text: a font, or the evidence layout's measure of a line drawn in several.
 */
export function wrapText(
	text: string,
	font: Pick<PDFFont, 'widthOfTextAtSize'>,
	size: number,
	width: number
): string[] {
	const lines: string[] = [];
	for (const rawLine of text.split('\n')) {
		const words = rawLine.split(/ +/).filter((w) => w !== '');
		let line = '';
		for (let word of words) {
			const candidate = line === '' ? word : `${line} ${word}`;
			if (font.widthOfTextAtSize(candidate, size) <= width) {
				line = candidate;
				continue;
			}
			if (line !== '') lines.push(line);
			while (font.widthOfTextAtSize(word, size) > width) {
				// The longest start of the word that fits (at least a character), by halving: widths
				// grow with length, and one measure of Arabic shapes the whole piece.
				let [fits, over] = [1, word.length];
				while (over - fits > 1) {
					const mid = (fits + over) >> 1;
					if (font.widthOfTextAtSize(word.slice(0, mid), size) > width) over = mid;
					else fits = mid;
				}
				lines.push(word.slice(0, fits));
				word = word.slice(fits);
			}
			line = word;
		}
		lines.push(line);
	}
	return lines;
}

/** Creates an empty document; see {@link TextPdf}. */
export async function createTextPdf(options: TextPdfOptions): Promise<TextPdf> {
	const pdf = await PDFDocument.create();
	const date = options.date ?? new Date();
	pdf.setTitle(sanitizeWinAnsi(options.title));
	if (options.author) pdf.setAuthor(sanitizeWinAnsi(options.author));
	if (options.subject) pdf.setSubject(sanitizeWinAnsi(options.subject));
	pdf.setCreator('signing-portal');
	pdf.setProducer('pdf-lib');
	pdf.setCreationDate(date);
	pdf.setModificationDate(date);

	const fonts = {
		regular: await pdf.embedFont(StandardFonts.Helvetica),
		bold: await pdf.embedFont(StandardFonts.HelveticaBold),
		mono: await pdf.embedFont(StandardFonts.Courier)
	};
	const footer = sanitizeWinAnsi(options.footer ?? options.title);

	let page: PDFPage = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
	let y = PAGE_HEIGHT - MARGIN;
	const bottom = MARGIN + FOOTER_ZONE;

	const newPage = () => {
		page = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
		y = PAGE_HEIGHT - MARGIN;
	};
	const ensure = (height: number) => {
		if (y - height < bottom && y < PAGE_HEIGHT - MARGIN) newPage();
	};
	const fontOf = (style: TextStyle) =>
		style.mono ? fonts.mono : style.bold ? fonts.bold : fonts.regular;
	const lineHeight = (size: number) => Math.round(size * 1.35 * 100) / 100;

	/** Draws pre-wrapped lines at x, breaking pages between lines. */
	const drawLines = (lines: string[], x: number, font: PDFFont, size: number, muted = false) => {
		const lh = lineHeight(size);
		for (const line of lines) {
			ensure(lh);
			y -= lh;
			if (line !== '') {
				page.drawText(line, { x, y: y + lh - size, size, font, color: muted ? GREY : BLACK });
			}
		}
	};

	const block = (text: string, style: TextStyle, indent = 0) => {
		const size = style.size ?? 10;
		const font = fontOf(style);
		const clean = sanitizeWinAnsi(text);
		drawLines(
			wrapText(clean, font, size, CONTENT_WIDTH - indent),
			MARGIN + indent,
			font,
			size,
			style.muted
		);
	};

	const doc: TextPdf = {
		title(text) {
			block(text, { size: 18, bold: true });
			y -= 8;
		},
		heading(text) {
			// Keep a heading with at least a few lines of what follows it.
			ensure(lineHeight(13) + 8 + lineHeight(10) * 3);
			y -= 8;
			block(text, { size: 13, bold: true });
			page.drawLine({
				start: { x: MARGIN, y: y - 2 },
				end: { x: PAGE_WIDTH - MARGIN, y: y - 2 },
				thickness: 0.5,
				color: RULE
			});
			y -= 6;
		},
		subheading(text) {
			ensure(lineHeight(11) + 4 + lineHeight(10) * 2);
			y -= 4;
			block(text, { size: 11, bold: true });
			y -= 2;
		},
		paragraph(text, style = {}) {
			const paragraphs = text.replace(/\r\n?/g, '\n').split(/\n{2,}/);
			paragraphs.forEach((p, i) => {
				if (i > 0) y -= 4;
				block(p, style);
			});
			y -= 4;
		},
		bullets(items, style = {}) {
			const size = style.size ?? 10;
			const font = fontOf(style);
			const indent = 14;
			for (const item of items) {
				const lines = wrapText(sanitizeWinAnsi(item), font, size, CONTENT_WIDTH - indent);
				ensure(lineHeight(size));
				page.drawText('\u2022', {
					x: MARGIN + 3,
					y: y - size,
					size,
					font: fonts.regular,
					color: style.muted ? GREY : BLACK
				});
				drawLines(lines, MARGIN + indent, font, size, style.muted);
				y -= 2;
			}
			y -= 2;
		},
		keyValue(label, value) {
			const size = 10;
			const lh = lineHeight(size);
			const labelLines = wrapText(sanitizeWinAnsi(label), fonts.bold, size, LABEL_WIDTH);
			const valueText = sanitizeWinAnsi(formatValue(value));
			const valueLines = wrapText(
				valueText === '' ? '-' : valueText,
				fonts.regular,
				size,
				CONTENT_WIDTH - LABEL_WIDTH - LABEL_GAP
			);
			const rows = Math.max(labelLines.length, valueLines.length);
			// Short rows stay together on one page; long values may run over a break.
			ensure(Math.min(rows, 4) * lh);
			for (let i = 0; i < rows; i++) {
				ensure(lh);
				y -= lh;
				const baseline = y + lh - size;
				const l = labelLines[i];
				const v = valueLines[i];
				if (l) page.drawText(l, { x: MARGIN, y: baseline, size, font: fonts.bold, color: BLACK });
				if (v) {
					page.drawText(v, {
						x: MARGIN + LABEL_WIDTH + LABEL_GAP,
						y: baseline,
						size,
						font: fonts.regular,
						color: BLACK
					});
				}
			}
			y -= 2;
		},
		keyValues(rows) {
			for (const [label, value] of rows) doc.keyValue(label, value);
		},
		space(points = 8) {
			y -= points;
			if (y < bottom) newPage();
		},
		pageBreak() {
			newPage();
		},
		async save() {
			const pages = pdf.getPages();
			const size = 8;
			pages.forEach((p, i) => {
				const number = `Page ${i + 1} of ${pages.length}`;
				const numberWidth = fonts.regular.widthOfTextAtSize(number, size);
				const room = CONTENT_WIDTH - numberWidth - 12;
				const footerLine = wrapText(footer, fonts.regular, size, room)[0] ?? '';
				p.drawLine({
					start: { x: MARGIN, y: MARGIN + 12 },
					end: { x: PAGE_WIDTH - MARGIN, y: MARGIN + 12 },
					thickness: 0.5,
					color: RULE
				});
				p.drawText(footerLine, { x: MARGIN, y: MARGIN, size, font: fonts.regular, color: GREY });
				p.drawText(number, {
					x: PAGE_WIDTH - MARGIN - numberWidth,
					y: MARGIN,
					size,
					font: fonts.regular,
					color: GREY
				});
			});
			return pdf.save();
		}
	};
	return doc;
}
