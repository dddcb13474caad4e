import * as v from 'valibot';
import { trailRefuses } from '$lib/server/audit/guard';

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
 * Separators people type (spaces, dashes of any length, dots) are not part of the number; digits
 * and dashes typed full-width (a phone's Japanese or Chinese keyboard) are the ASCII ones (NFKC).
 */
export function ssnDigits(input: string): string {
	return input.normalize('NFKC').replace(/[\s.\-\u2010-\u2015\u2212]/g, '');
}

// Digits in any script (fullwidth, Arabic-Indic…), 3-2-4 with up to three characters of anything
// but letters and digits between the groups; or nine grouped any other way (3-3-3, 4-5, one by
// one) by spaces or dashes, as the SSN field itself would take them (ssnDigits). Not by dots: an
// Android build in a User-Agent is written 240205.004. Never part of a longer number, even one
// the same separators continue, so a phone number (3-3-4, +1 and 3-3-4) or an account number of
// ten digits or more is left alone.
const SEPARATOR = '[\\s\\-\\u2010-\\u2015\\u2212]{0,3}';
const SSN_SHAPED = new RegExp(
	[
		/(?<!\p{Nd})\p{Nd}{3}[^\p{L}\p{Nd}]{0,3}\p{Nd}{2}[^\p{L}\p{Nd}]{0,3}\p{Nd}{4}(?!\p{Nd})/u
			.source,
		`(?<!\\p{Nd}${SEPARATOR})\\p{Nd}(?:${SEPARATOR}\\p{Nd}){8}(?!${SEPARATOR}\\p{Nd})`
	].join('|'),
	'u'
);
// Invisible format characters (zero-width spaces and joiners) would otherwise split the digits.
const FORMAT_CHARACTERS = /\p{Cf}/gu;

const plain = (text: string) => text.normalize('NFKC').replace(FORMAT_CHARACTERS, '');

/** Whether free text holds something that looks like an SSN, however it is written. */
export function looksLikeSsn(text: string): boolean {
	return SSN_SHAPED.test(plain(text));
}

/**
 * Whether an address (a path and query, as a browser sends it) holds what looks like an SSN once
 * its percent-escapes and `+` are read back into what was typed.
 */
export function addressLooksLikeSsn(address: string): boolean {
	let read: string;
	try {
		read = decodeURIComponent(address.replace(/\+/g, ' '));
	} catch {
		read = address;
	}
	return looksLikeSsn(read);
}

/** The text without what looks like an SSN: what may be shown back after refusing it. */
export function withoutSsn(text: string): string {
	return plain(text).replace(new RegExp(SSN_SHAPED.source, 'gu'), '');
}

/**
 * For typed text that goes on the record (names, addresses, the ID type, a reason): refused, in
 * the caller's words, when it holds something that looks like an SSN, or what the trail's own
 * guard refuses to record (`audit/guard.ts`: it reads digits more narrowly, but not always
 * within these rules, e.g. after a fullwidth digit), which would end the request in an error page.
 */
export const noSsn = (message: string) =>
	v.check((s: string) => !looksLikeSsn(s) && !trailRefuses(s), message);

/** The text with whatever looks like an SSN replaced by `mask`. */
export function maskedSsn(text: string, mask: string): string {
	return plain(text).replace(new RegExp(SSN_SHAPED.source, 'gu'), mask);
}

/** Typed text as it may be shown back after a refusal: as typed, less what looks like an SSN. */
export function shownBack(text: string): string {
	return looksLikeSsn(text) ? withoutSsn(text) : text;
}

/** A form's field as it may be shown back or kept (see shownBack), at most `max` characters. */
export function typedBack(
	form: Record<string, FormDataEntryValue>,
	key: string,
	max: number
): string {
	const value = form[key];
	return typeof value === 'string' ? shownBack(value).slice(0, max) : '';
}
