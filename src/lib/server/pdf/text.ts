/**
 * The PDF standard fonts (Helvetica, Courier…) encode only Windows-1252 ("WinAnsi"); pdf-lib
 * throws on any other character. Merchant names and upstream text can hold anything, so every
 * string is brought into that set before it is drawn: accents that WinAnsi lacks lose their
 * mark (ő → o), typographic look-alikes become their ASCII form, invisible and control
 * characters go, and whatever is left is spelled out by its code point, a run of them in one
 * pair of brackets ("Café 🍰" → "Café [U+1F370]"): a reviewer can still tell exactly what was
 * typed, where "?" said only that something was.
 */

const EXTRA = [
	0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192, 0x2c6, 0x2dc, 0x2013, 0x2014, 0x2018,
	0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a,
	0x20ac, 0x2122
];

const encodable = (cp: number) =>
	(cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || EXTRA.includes(cp);

/** Look-alikes mapped by hand because Unicode decomposition does not reach them. */
const REPLACEMENTS: Record<string, string> = {
	'\u2010': '-',
	'\u2011': '-',
	'\u2012': '-',
	'\u2015': '-',
	'\u2212': '-',
	'\u2032': "'",
	'\u2033': '"',
	'\u201b': "'",
	'\u201f': '"',
	'\u2043': '-',
	'\u2192': '->',
	'\u2190': '<-',
	'\u2264': '<=',
	'\u2265': '>=',
	'\u2713': 'v',
	'\u2714': 'v',
	'\u00ad': '',
	'\u0131': 'i',
	'\u0141': 'L',
	'\u0142': 'l',
	'\u0110': 'D',
	'\u0111': 'd',
	'\u0126': 'H',
	'\u0127': 'h'
};

/**
 * Zero-width, bidi-control characters and variation selectors (an emoji's U+FE0F): dropped, they
 * have no glyph and carry no text of their own.
 */
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
const isVariationSelector = (cp: number) => cp >= 0xfe00 && cp <= 0xfe0f;

/**
 * Arabic presentation forms (a letter's joined form as a character of its own, as text copied out
 * of a PDF holds them) as the letters they are: the Arabic face joins letters itself.
 */
const PRESENTATION = /[\ufb50-\ufdff\ufe70-\ufefc]/gu;
export const foldPresentationForms = (text: string) =>
	text.replace(PRESENTATION, (c) => c.normalize('NFKC'));

/** How a character no font here can show is written: its code point, as `[U+1F370]`. */
export const SPELLED_OUT = /\[U\+[0-9A-F]{4,6}( U\+[0-9A-F]{4,6})*\]/;
const codePoint = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Returns `text` with only characters the standard PDF fonts can encode. Keeps `\n`; turns
 * tabs and other spaces into a plain space.
 */
export function sanitizeWinAnsi(text: string): string {
	return sanitize(text);
}

/**
 * As `sanitizeWinAnsi`, for an embedded font: a character it has a glyph for is kept as it is
 * (Ł, ễ, Cyrillic, Greek), and only the rest is folded, mapped or turned into "?".
 */
export function sanitizeForFont(text: string, hasGlyph: (cp: number) => boolean): string {
	return sanitize(text, hasGlyph);
}

function sanitize(text: string, hasGlyph?: (cp: number) => boolean): string {
	let out = '';
	// Code points of the run of characters being spelled out, written when the run ends.
	let run: string[] = [];
	const add = (s: string) => {
		if (run.length > 0) out += `[${run.join(' ')}]`;
		run = [];
		out += s;
	};
	const normalized = foldPresentationForms(text.normalize('NFC')).replace(
		/\r\n?|[\u2028\u2029\u0085]/g,
		'\n'
	);
	for (const ch of normalized) {
		const cp = ch.codePointAt(0) ?? 0;
		if (ch === '\n') add('\n');
		else if (encodable(cp) && cp !== 0xad) add(ch);
		else if (ch === '\t' || /\s/u.test(ch)) add(' ');
		// The zero-width (non-)joiner is the Arabic face's, where it has one (Persian's "می‌خواهم").
		else if ((cp === 0x200c || cp === 0x200d) && hasGlyph?.(cp)) add(ch);
		else if (
			cp < 0x20 ||
			(cp >= 0x7f && cp < 0xa0) ||
			cp === 0xad ||
			INVISIBLE.test(ch) ||
			isVariationSelector(cp)
		)
			continue;
		else if (hasGlyph?.(cp)) add(ch);
		else if (ch in REPLACEMENTS) add(REPLACEMENTS[ch]!);
		else {
			const stripped = ch.normalize('NFKD').replace(/\p{M}/gu, '');
			const ok = stripped !== '' && [...stripped].every((c) => encodable(c.codePointAt(0) ?? 0));
			if (ok) add(stripped);
			else run.push(codePoint(cp));
		}
	}
	add('');
	return out;
}
