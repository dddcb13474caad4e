import fontkit from '@pdf-lib/fontkit';
import bidiFactory from 'bidi-js';
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
import { foldPresentationForms, sanitizeForFont, SPELLED_OUT } from '$lib/server/pdf/text';
// Inlined into the server bundle, so the built app needs no file beside it.
import scriptFontUrl from './fonts/DancingScript-Regular.otf?inline';
import notoBoldUrl from './fonts/NotoSans-Bold.ttf?inline';
import notoRegularUrl from './fonts/NotoSans-Regular.ttf?inline';
import arabicBoldUrl from './fonts/NotoSansArabic-Bold.ttf?inline';
import arabicRegularUrl from './fonts/NotoSansArabic-Regular.ttf?inline';
import hebrewBoldUrl from './fonts/NotoSansHebrew-Bold.ttf?inline';
import hebrewRegularUrl from './fonts/NotoSansHebrew-Regular.ttf?inline';

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
 * as the signer typed it rather than as "?" or without its accents. Arabic and Hebrew letters are
 * drawn in Noto Sans Arabic and Noto Sans Hebrew, embedded likewise only when the facts hold them,
 * shaped by fontkit (Arabic's joined forms) and put in reading order by the Unicode bidirectional
 * algorithm (bidi-js): `pieces`. Other documents are as before, with no font embedded but the
 * script. Scripts none of these has (Chinese, emoji…) are spelled out by code point.
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

type Face = ReturnType<typeof fontkit.create>;

/**
 * Noto Sans's coverage (the bold face has the same), read once. Its zero-width joiners are not
 * counted: outside Arabic they join nothing (see `drawable`).
 */
let notoFace: Face | undefined;
const notoHas = (cp: number) =>
	cp !== 0x200c &&
	cp !== 0x200d &&
	(notoFace ??= fontkit.create(NOTO.regular)).hasGlyphForCodePoint(cp);

/** Whether Noto Sans draws some character of `text` that the standard fonts would change. */
const wantsNoto = (text: string) => sanitizeForFont(text, notoHas) !== sanitizeWinAnsi(text);

/**
 * The right-to-left faces, each for the Unicode blocks its file was cut to (README: Fonts): a
 * character in one of them is drawn in that face, whatever font the rest of its text is in.
 */
const RTL = {
	arabic: {
		block: /[\u0600-\u06ff\u0750-\u077f]/u,
		bytes: { regular: fontBytes(arabicRegularUrl), bold: fontBytes(arabicBoldUrl) },
		probe: '\u0627\u0628'
	},
	hebrew: {
		block: /[\u0590-\u05ff\ufb1d-\ufb4f]/u,
		bytes: { regular: fontBytes(hebrewRegularUrl), bold: fontBytes(hebrewBoldUrl) },
		probe: '\u05d0\u05d1'
	}
} as const;
type Rtl = keyof typeof RTL;
const RTL_NAMES = Object.keys(RTL) as Rtl[];
/** Any character of those blocks: a text without one is drawn as before, in one font. */
const RTL_ANY = new RegExp(RTL_NAMES.map((n) => RTL[n].block.source).join('|'), 'u');

/** Each right-to-left face, read once: its coverage, and how fontkit lays out text in it. */
const rtlFaces: Partial<Record<Rtl, Face>> = {};
const rtlFace = (name: Rtl) => (rtlFaces[name] ??= fontkit.create(RTL[name].bytes.regular));

/**
 * Whether fontkit lays `text` out right to left in `name`'s face. It does so for a right-to-left
 * script only in a face with layout tables (the Arabic one; the Hebrew one has none), so whether
 * the face does is asked once, of two of its letters, and then of the text's script.
 */
const turnsFaces: Partial<Record<Rtl, boolean>> = {};
function fontkitTurns(name: Rtl, text: string): boolean {
	const face = rtlFace(name);
	const probe = RTL[name].probe;
	turnsFaces[name] ??= face.layout(probe).glyphs[0]?.codePoints[0] !== probe.codePointAt(0);
	return turnsFaces[name] && face.layout(text).direction === 'rtl';
}

/** The right-to-left face that draws `ch`, if one does. */
function rtlFor(ch: string): Rtl | undefined {
	const cp = ch.codePointAt(0) ?? 0;
	return RTL_NAMES.find((n) => RTL[n].block.test(ch) && rtlFace(n).hasGlyphForCodePoint(cp));
}

/** The embedded faces a document needs besides the standard fonts and the script. */
export interface Unicode {
	/** Noto Sans: letters Windows-1252 lacks (Ł, ễ, Cyrillic, Greek). */
	noto: boolean;
	arabic: boolean;
	hebrew: boolean;
}

const strings = (facts: unknown): string[] => {
	if (typeof facts === 'string') return [facts];
	if (facts === null || typeof facts !== 'object' || ArrayBuffer.isView(facts)) return [];
	return Object.values(facts).flatMap(strings);
};

/**
 * The faces the texts in `facts` (its strings, however deep) need: a document made from them
 * passes this to `Sheet.create` or `Sheet.on`.
 */
export function needsUnicode(facts: unknown): Unicode {
	const texts = strings(facts).map(foldPresentationForms);
	const has = (name: Rtl) =>
		texts.some((t) => RTL[name].block.test(t) && [...t].some((ch) => rtlFor(ch) === name));
	return { noto: texts.some(wantsNoto), arabic: has('arabic'), hebrew: has('hebrew') };
}

const bidi = bidiFactory();

/** A piece of a line as pdf-lib is to draw it: one font, its characters as pdf-lib takes them. */
interface Piece {
	text: string;
	font: PDFFont;
}

/** UAX #9's strong direction of `ch` (L, R or AL), or null for a weak or neutral character. */
function strong(ch: string): 'L' | 'R' | 'AL' | null {
	const type = bidi.getBidiCharTypeName(ch);
	return type === 'L' || type === 'R' || type === 'AL' ? type : null;
}

/**
 * How a line of a wrapped text is laid out: right to left when the text has Arabic or Hebrew and
 * no left-to-right letter (an Arabic name, address or paragraph; a sentence of ours with a name
 * in it stays left to right), and the strong letters of the text just before and after the line.
 * UAX #9 resolves a paragraph's levels whole and reorders it line by line: "12" starting a line of
 * an Arabic paragraph is still the Arabic's number (drawn to the right of the words it follows).
 */
interface Flow {
	rtl: boolean;
	before: string;
	after: string;
}
const NO_FLOW: Flow = { rtl: false, before: '', after: '' };

function flowsOf(lines: string[]): Flow[] {
	if (!lines.some((l) => RTL_ANY.test(l))) return lines.map(() => NO_FLOW);
	const strongs = lines.map((l) => [...l].filter((ch) => strong(ch) !== null));
	const all = strongs.flat();
	const rtl = all.length > 0 && all.every((ch) => strong(ch) !== 'L');
	const before: string[] = [];
	for (let i = 0, last = ''; i < lines.length; i++) {
		before.push(last);
		last = strongs[i]!.at(-1) ?? last;
	}
	const after: string[] = [];
	for (let i = lines.length - 1, next = ''; i >= 0; i--) {
		after[i] = next;
		next = strongs[i]![0] ?? next;
	}
	return lines.map((_, i) => ({ rtl, before: before[i]!, after: after[i]! }));
}

/** Characters drawn in the face of the letter before them, where that face has them. */
const ATTACHED = /[\p{M}\u200c\u200d]/u;
/** Hebrew's points and accents: see `drawable`. */
const HEBREW_POINTS = /[\u0591-\u05c7]/gu;
/** A zero-width joiner or non-joiner not after an Arabic letter, where it has no use. */
const STRAY_JOINER = /(?<![\u0600-\u06ff\u0750-\u077f\u200c\u200d])[\u200c\u200d]+/gu;

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
		private readonly noto: Record<'regular' | 'bold', PDFFont> | undefined,
		/** Noto Sans Arabic and Hebrew, for those letters wherever they are (see `pieces`). */
		private readonly rtl: Partial<Record<Rtl, Record<'regular' | 'bold', PDFFont>>>
	) {
		this.newPage();
	}

	static async create(
		meta: { title: string; subject: string; date: Date },
		opts: { unicode?: Partial<Unicode> } = {}
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
	static async on(pdf: PDFDocument, opts: { unicode?: Partial<Unicode> } = {}): Promise<Sheet> {
		pdf.registerFontkit(fontkit);
		const script = fontkit.create(SCRIPT_FONT);
		// Subset: a document carries only the glyphs it draws (a few KB, not 190 KB a face). The
		// files have no layout tables, so each letter is one glyph and the text extracts as drawn
		// (with Google's, "ị" in "Thị" made every later "i" extract as "ị"). The Arabic face keeps
		// its substitutions: they join the letters, each form its own glyph of one letter.
		const noto = async (bytes: Buffer) => pdf.embedFont(bytes, { subset: true });
		const faces = async (name: Rtl) => ({
			regular: await noto(RTL[name].bytes.regular),
			bold: await noto(RTL[name].bytes.bold)
		});
		const rtl: Partial<Record<Rtl, Record<'regular' | 'bold', PDFFont>>> = {};
		for (const name of RTL_NAMES) if (opts.unicode?.[name]) rtl[name] = await faces(name);
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
			opts.unicode?.noto
				? { regular: await noto(NOTO.regular), bold: await noto(NOTO.bold) }
				: undefined,
			rtl
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

	/** The right-to-left face this document embeds that draws `ch`, if one does. */
	private rtlOf(ch: string): Rtl | undefined {
		const name = rtlFor(ch);
		return name && this.rtl[name] ? name : undefined;
	}

	/**
	 * `text` as `font` can draw it, with the Arabic and Hebrew faces beside it (see `pieces`).
	 * Hebrew's points go: pdf-lib draws no mark where the font would place it, and a shin's dot on
	 * the wrong arm makes it a sin; the letters alone are how Hebrew is mostly written.
	 */
	private drawable(text: string, font: PDFFont): string {
		const noto = this.noto && (font === this.noto.regular || font === this.noto.bold);
		let drawn = sanitizeForFont(text, (cp) =>
			cp === 0x200c || cp === 0x200d
				? this.rtl.arabic !== undefined
				: (noto && notoHas(cp)) || this.rtlOf(String.fromCodePoint(cp)) !== undefined
		);
		if (this.rtl.arabic) drawn = drawn.replace(STRAY_JOINER, '');
		if (this.rtl.hebrew) drawn = drawn.replace(HEBREW_POINTS, (c) => (/\p{M}/u.test(c) ? '' : c));
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
		return wrapText(this.drawable(text, font), this.measure(font), style.size ?? 9, width);
	}

	/**
	 * `line` (drawable in `font`) as pieces to draw left to right. A line without Arabic or Hebrew
	 * is one piece in `font`. Otherwise its letters of those scripts, with the marks on them, are
	 * in their face and the rest in `font`, and the pieces are put in the order a reader sees them
	 * by the Unicode bidirectional algorithm (UAX #9: bidi-js resolves the levels, in the direction
	 * and between the letters `flow` gives; the pieces are then reordered by rule L2, a run at an
	 * odd level reversed, with its brackets mirrored). fontkit shapes a piece in the Arabic face and lays it out right to
	 * left itself, so such a piece is handed over in the order it was typed (and one it would turn
	 * that should not turn, digits in that face, is handed over turned): `fontkitTurns`.
	 */
	private pieces(line: string, font: PDFFont, flow = NO_FLOW): Piece[] {
		if (!flow.rtl && !RTL_ANY.test(line)) return [{ text: line, font }];
		const weight = font === this.fonts.bold || font === this.noto?.bold ? 'bold' : 'regular';
		const chars = [...line];
		const faces: Array<Rtl | undefined> = [];
		chars.forEach((ch, i) => {
			const before = faces[i - 1];
			const attached =
				ATTACHED.test(ch) && before && rtlFace(before).hasGlyphForCodePoint(ch.codePointAt(0)!);
			faces.push(attached ? before : this.rtlOf(ch));
		});
		if (faces.every((f) => f === undefined) && !flow.rtl) return [{ text: line, font }];
		const { levels } = bidi.getEmbeddingLevels(
			flow.before + line + flow.after,
			flow.rtl ? 'rtl' : 'ltr'
		);
		// Logical runs of one face at one level.
		const runs: Array<{ chars: string[]; face: Rtl | undefined; level: number }> = [];
		let unit = flow.before.length;
		chars.forEach((ch, i) => {
			const level = levels[unit] ?? 0;
			unit += ch.length;
			const last = runs.at(-1);
			if (last && last.face === faces[i] && last.level === level) last.chars.push(ch);
			else runs.push({ chars: [ch], face: faces[i], level });
		});
		// L2: from the highest level down to 1, reverse each stretch of runs at that level or above.
		for (let level = Math.max(...runs.map((r) => r.level)); level >= 1; level--) {
			for (let i = 0; i < runs.length;) {
				if (runs[i]!.level < level) {
					i++;
					continue;
				}
				let end = i;
				while (end < runs.length && runs[end]!.level >= level) end++;
				runs.splice(i, end - i, ...runs.slice(i, end).reverse());
				i = end;
			}
		}
		return runs.map(({ chars, face, level }) => {
			const typed = chars.join('');
			const turned = [...chars].reverse();
			if (face === undefined) {
				const mirrored = turned.map((c) => bidi.getMirroredCharacter(c) ?? c).join('');
				return { text: level % 2 === 1 ? mirrored : typed, font };
			}
			const text = (level % 2 === 1) === fontkitTurns(face, typed) ? typed : turned.join('');
			return { text, font: this.rtl[face]![weight] };
		});
	}

	/** What measures a line drawn in `font` as `pieces` draws it. */
	private measure(font: PDFFont): Pick<PDFFont, 'widthOfTextAtSize'> {
		if (Object.keys(this.rtl).length === 0) return font;
		return {
			widthOfTextAtSize: (text, size) =>
				this.pieces(text, font).reduce((w, p) => w + p.font.widthOfTextAtSize(p.text, size), 0)
		};
	}

	/**
	 * Draws `line` (drawable in `font`) on `page` from x, piece by piece (see `pieces`), laid out as
	 * `flow` says; or, given `width`, a line of right-to-left text that wraps ends at x + width.
	 */
	private drawLine(
		page: PDFPage,
		line: string,
		at: {
			x: number;
			y: number;
			size: number;
			font: PDFFont;
			color: RGB;
			slant?: boolean;
			flow?: Flow;
			width?: number;
		}
	): void {
		const pieces = this.pieces(line, at.font, at.flow);
		const alignRight = at.flow?.rtl === true && at.width !== undefined;
		// One piece from x (every line without Arabic or Hebrew): nothing to measure.
		const widths =
			pieces.length === 1 && !alignRight
				? [0]
				: pieces.map((p) => p.font.widthOfTextAtSize(p.text, at.size));
		let x = alignRight ? at.x + at.width! - widths.reduce((a, b) => a + b, 0) : at.x;
		for (const [i, piece] of pieces.entries()) {
			page.drawText(piece.text, {
				x,
				y: at.y,
				size: at.size,
				font: piece.font,
				color: at.color,
				...(at.slant ? { ySkew: degrees(12) } : {})
			});
			x += widths[i]!;
		}
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
		const flows = flowsOf(lines);
		lines.forEach((line, i) => {
			if (line === '') return;
			this.drawLine(this.page, line, {
				x,
				y: top - size - i * lh,
				size,
				font,
				color: style.color ?? COLOR.ink,
				flow: flows[i],
				// A right-to-left text over more lines than one is set to its column's right edge; a
				// line alone (a name) starts where the values beside it start.
				width: lines.length > 1 ? width : undefined
			});
		});
		return lines.length * lh;
	}

	/** Full-width wrapped text that may run over pages. */
	paragraph(text: string, style: Style = {}, after = 4): void {
		const lh = this.lineHeight(style);
		const font = this.fontFor(text, style);
		const lines = this.lines(text, CONTENT_WIDTH, style, font);
		const flows = flowsOf(lines);
		lines.forEach((line, i) => {
			this.ensure(lh);
			if (line !== '') {
				this.drawLine(this.page, line, {
					x: MARGIN.x,
					y: this.y - (style.size ?? 9),
					size: style.size ?? 9,
					font,
					color: style.color ?? COLOR.ink,
					flow: flows[i],
					width: lines.length > 1 ? CONTENT_WIDTH : undefined
				});
			}
			this.y -= lh;
		});
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
	 * signature with a letter the script font lacks that Noto Sans has (Ł, ễ, Cyrillic, Greek) or
	 * in Arabic or Hebrew is drawn in Noto Sans (or those faces), slanted, rather than with that
	 * letter changed.
	 */
	signature(text: string, x: number, top: number, width: number, size = 22): number {
		const { font, s, lines } = this.signatureLines(text, width, size);
		const flows = flowsOf(lines);
		let baseline = top - s * 1.05;
		lines.forEach((line, i) => {
			if (i > 0) baseline -= s * 1.2;
			this.drawLine(this.page, line, {
				flow: flows[i],
				x: x + 4,
				y: baseline,
				size: s,
				font,
				color: COLOR.navy,
				slant: font !== this.fonts.script
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
		// Noto Sans if embedded, else Helvetica beside the Arabic or Hebrew face.
		const plain = this.noto?.regular ?? this.fonts.regular;
		const rtl = RTL_ANY.test(text) && [...text].some((ch) => this.rtlOf(ch));
		if ((this.noto || rtl) && this.drawable(text, plain) !== drawn) {
			font = plain;
			drawn = this.drawable(text, font);
			s = Math.round(size * 0.8);
		}
		const measure = this.measure(font);
		while (s > 10 && measure.widthOfTextAtSize(drawn, s) > width) s -= 1;
		// Still too wide at the smallest size (a long name): on as many lines as it takes, rather
		// than past the column's edge or the page's.
		return { font, s, lines: wrapText(drawn, measure, s, width - 4) };
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
			const line = this.lines(text, CONTENT_WIDTH - numberWidth - 16, { size }, font)[0] ?? '';
			p.drawLine({
				start: { x: MARGIN.x, y: 40 },
				end: { x: PAGE.width - MARGIN.x, y: 40 },
				thickness: 0.5,
				color: COLOR.rule
			});
			this.drawLine(p, line, {
				x: MARGIN.x,
				y: 29,
				size,
				font,
				color: COLOR.muted,
				flow: flowsOf([line])[0]
			});
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
