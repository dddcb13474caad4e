import * as v from 'valibot';
import { trailRefused, trailRefuses } from '$lib/server/audit/guard';

/**
 * The Social Security Administration never issues: area 000, 666 or 900–999; group 00; serial
 * 0000. Two numbers were printed in public material and voided (078-05-1120, 219-09-9999).
 */
export function isPossibleSsn(digits: string): boolean {
	if (!/^\d{9}$/.test(digits)) return false;
	const area = Number(digits.slice(0, 3));
	const group = digits.slice(3, 5);
	const serial = digits.slice(5);
	if (area === 0 || area === 666 || area >= 900) return false;
	if (group === '00' || serial === '0000') return false;
	return digits !== '078051120' && digits !== '219099999';
}

/**
 * Separators people type (spaces, dashes of any length, dots) are not part of the number, nor are
 * invisible format characters a paste can bring (a zero-width space); digits and dashes typed
 * full-width (a phone's Japanese or Chinese keyboard) are the ASCII ones (NFKC).
 */
export function ssnDigits(input: string): string {
	return input.normalize('NFKC').replace(/[\s.\-\u2010-\u2015\u2212\p{Cf}]/gu, '');
}

// Digits in any script (fullwidth, Arabic-Indic…), 3-2-4 with up to three separators between the
// groups (a character that is neither a letter nor a digit, or a run of up to six spaces, taken
// whole: a longer run parts two numbers), or nine in a row; or 3-3-3 by spaces or dashes (as
// the SSN field takes them, ssnDigits) when the nine could be an SSN, so that "125 000 000" is a
// sum. Never part of a longer number, even one the same separators continue, so a phone number
// (3-3-4, +1 and 3-3-4) or an account number of ten digits or more is left alone. Not other
// groupings: an EIN is written 12-3456789, a date and time 2024-01-15 9:30, an Android build in a
// User-Agent 240205.004, and a UUID has runs of digits a dash apart.
// A run is taken whole ((?!\s) after it), so there is one way to read it: a run split across the
// three places would make the match try every split (seconds on a long post).
const SEP = '[\\s\\-\\u2010-\\u2015\\u2212]';
const GAP = '(?:\\s{1,6}(?!\\s)|[^\\p{L}\\p{Nd}\\s]){0,3}';
const SSN_SHAPED = new RegExp(
	[
		`(?<!\\p{Nd})\\p{Nd}{3}${GAP}\\p{Nd}{2}${GAP}\\p{Nd}{4}(?!\\p{Nd})`,
		`(?<threes>(?<!\\d${SEP}{0,3})\\d{3}${SEP}{1,3}\\d{3}${SEP}{1,3}\\d{3}(?!${SEP}{0,3}\\d))`
	].join('|'),
	'gu'
);

/** Each stretch of `text` that looks like an SSN (3-3-3 only when its digits could be one). */
function* ssnShaped(text: string) {
	for (const m of text.matchAll(SSN_SHAPED)) {
		if (!m.groups?.threes || isPossibleSsn(m[0].replace(/\D/g, ''))) yield m;
	}
}

// Invisible format characters (zero-width spaces and joiners) would otherwise split the digits.
const FORMAT_CHARACTERS = /\p{Cf}/gu;

/** The text as the SSN rules read it: NFKC, without invisible format characters. */
export const plain = (text: string) => text.normalize('NFKC').replace(FORMAT_CHARACTERS, '');

/**
 * Whether free text holds something that looks like an SSN, however it is written: read as
 * `plain` gives it, and as typed, where a superscript or circled digit (which NFKC makes one of
 * the number's, ¹523417890 a longer number) stands apart from the nine digits beside it.
 */
export function looksLikeSsn(text: string): boolean {
	const read = plain(text);
	// As typed only where NFKC changed something: else it is the same reading twice.
	return !ssnShaped(read).next().done || (read !== text && !ssnShaped(text).next().done);
}

/**
 * Whether an address (a path and query, as a browser sends it) holds what looks like an SSN once
 * its percent-escapes and `+` are read back into what was typed.
 */
export function addressLooksLikeSsn(address: string): boolean {
	// Each run of escapes on its own: one stray % must not leave the rest unread.
	const read = address.replace(/\+/g, ' ').replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
		try {
			return decodeURIComponent(run);
		} catch {
			return run;
		}
	});
	return looksLikeSsn(read);
}

/**
 * The text without what looks like an SSN: what may be shown back after refusing it. Where the
 * number stood between two words, one space is left between them, not two.
 */
export function withoutSsn(text: string): string {
	return cutUntilAccepted(text, (pieces) =>
		pieces.reduce((kept, next) =>
			/[^\S\n]$/.test(kept) ? kept + next.replace(/^[^\S\n]+/, '') : kept + next
		)
	);
}

/**
 * The text cut where it looks like an SSN, the pieces joined by `join`, again while what they make
 * is still refused: pieces joined can read as a number none held (a fullwidth digit on each side
 * of a cut). Three passes at most: text built to nest numbers in numbers would need a pass for
 * every dozen characters; past them, no digit is kept.
 */
function cutUntilAccepted(text: string, join: (pieces: string[]) => string): string {
	let kept = text;
	for (let pass = 0; pass < 3; pass++) {
		const pieces = aroundSsn(kept);
		if (!pieces) return kept;
		kept = join(pieces);
		if (!refused(kept)) return kept;
	}
	return withoutDigits(kept);
}

/** The text with no digit at all: where cutting again would not end (see cutUntilAccepted). */
const withoutDigits = (text: string) => plain(text).replace(/\p{N}/gu, '');

/**
 * `text` cut to `max` characters and cleaned by `clean` (withoutSsn or maskedSsn), cleaned first
 * where `cleanFirst`, then cut and cleaned again while it is still refused: a cut can leave nine
 * digits of a longer number alone, and NFKC can make the text longer. Three passes at most, as
 * cutUntilAccepted; past them, no digit is kept.
 */
function cleanedCut(
	text: string,
	max: number,
	clean: (text: string) => string,
	{ cleanFirst }: { cleanFirst: boolean }
): string {
	let kept = (cleanFirst ? clean(text) : text).slice(0, max);
	for (let pass = 0; refused(kept); pass++) {
		if (pass === 3) return withoutDigits(kept).slice(0, max);
		kept = clean(kept).slice(0, max);
	}
	return kept;
}

/**
 * Typed text cut to `max` characters, as it may be shown back or kept: cut first (the check reads
 * no more than is kept), then less what looks like an SSN, looked at again after each cut.
 */
export const shownBackCut = (text: string, max: number) =>
	cleanedCut(text, max, withoutSsn, { cleanFirst: false });

/**
 * For typed text that goes on the record (names, addresses, the ID type, a reason): refused, in
 * the caller's words, when it holds something that looks like an SSN, or what the trail's own
 * guard refuses to record (`audit/guard.ts`: it reads digits more narrowly, but not always
 * within these rules, e.g. after a fullwidth digit), which would end the request in an error page.
 */
export const noSsn = (message: string) => v.check((s: string) => !refused(s), message);

/** Whether `noSsn` refuses the text. */
const refused = (text: string) => looksLikeSsn(text) || trailRefuses(text);

/**
 * The text cut where it looks like an SSN, read as `plain` gives it and as typed (looksLikeSsn),
 * and where the trail's guard reads one (`noSsn` refuses all three, so none may come back, and
 * they differ: the guard takes a fullwidth digit before 123-45-6789 for no digit): the pieces
 * around each number, as `plain` reads them, or null when nothing does.
 */
function aroundSsn(text: string): string[] | null {
	const pieces = [''];
	let from = 0;
	const segments: string[] = [];
	const asTyped = [
		...trailRefused(text),
		...[...ssnShaped(text)].map((m) => ({ index: m.index, length: m[0].length }))
	].sort((a, b) => a.index - b.index);
	for (const m of asTyped) {
		// The two readings can find overlapping stretches: one cut for both.
		if (m.index < from) {
			from = Math.max(from, m.index + m.length);
			continue;
		}
		segments.push(text.slice(from, m.index));
		from = m.index + m.length;
	}
	segments.push(text.slice(from));
	segments.forEach((segment, i) => {
		if (i > 0) pieces.push('');
		const read = plain(segment);
		let at = 0;
		for (const m of ssnShaped(read)) {
			pieces[pieces.length - 1] += read.slice(at, m.index);
			pieces.push('');
			at = m.index + m[0].length;
		}
		pieces[pieces.length - 1] += read.slice(at);
	});
	return pieces.length > 1 ? pieces : null;
}

/**
 * The text with whatever looks like an SSN replaced by `mask`; as it came, when nothing does
 * (a name typed with a ligature or a fullwidth letter keeps it).
 */
export function maskedSsn(text: string, mask: string): string {
	return cutUntilAccepted(text, (pieces) => pieces.join(mask));
}

/**
 * Text masked where it looks like an SSN (see maskedSsn), then cut to `max` characters, looked at
 * again after each cut: masked first, no SSN across the cut keeps eight of its digits; looked at
 * again, a cut through a longer number does not leave nine of its digits alone.
 */
export const maskedCut = (text: string, mask: string, max: number) =>
	cleanedCut(text, max, (t) => maskedSsn(t, mask), { cleanFirst: true });

/** Typed text as it may be shown back after a refusal: as typed, less what looks like an SSN. */
export const shownBack = withoutSsn;

/** A form's field as it may be shown back or kept (see shownBack), at most `max` characters. */
export function typedBack(
	form: Record<string, FormDataEntryValue>,
	key: string,
	max: number
): string {
	const value = form[key];
	return typeof value === 'string' ? shownBackCut(value, max) : '';
}
