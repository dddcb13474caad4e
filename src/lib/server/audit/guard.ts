/**
 * The trail is evidence shown to third parties: it must never hold a full SSN (the last four at
 * most) or an identity answer. This is the last line of defence against a caller passing one by
 * mistake. A run of exactly nine digits standing alone counts, as does ddd-dd-dddd; digits next
 * to letters do not, so hex hashes and ids (which often contain nine digits in a row) pass.
 * Numbers are not checked: ids such as MerchantDecisionID are numbers and may have nine digits.
 */
const NINE_DIGITS = /(?<![\p{L}\p{N}])\d{9}(?![\p{L}\p{N}])/u;
const SSN_FORMAT = /(?<!\d)\d{3}-\d{2}-\d{4}(?!\d)/;

// Both, to find every stretch (matchAll reads a copy: the flag's lastIndex is never shared).
const TRAIL_REFUSED = new RegExp(`${NINE_DIGITS.source}|${SSN_FORMAT.source}`, 'gu');

/**
 * Each stretch of `text` the trail refuses (for text shown back after a refusal, which must hold
 * none of it: `withoutSsn`).
 */
export function* trailRefused(text: string): Generator<{ index: number; length: number }> {
	for (const m of text.matchAll(TRAIL_REFUSED)) {
		yield { index: m.index, length: m[0].length };
	}
}

/** What the trail refuses to record; forms refuse it first (`noSsn`), so it never ends a request. */
export function trailRefuses(text: string): boolean {
	return NINE_DIGITS.test(text) || SSN_FORMAT.test(text);
}

/** Throws if any string (value or key) anywhere in `value` looks like an SSN. */
export function assertNoSsn(value: unknown, path = 'data'): void {
	if (typeof value === 'string') {
		// The message names where, never what: it may end up in a log.
		if (trailRefuses(value))
			throw new Error(`audit: ${path} looks like an SSN; refusing to record it`);
	} else if (Array.isArray(value)) {
		value.forEach((item, i) => assertNoSsn(item, `${path}[${i}]`));
	} else if (value !== null && typeof value === 'object') {
		for (const [key, item] of Object.entries(value)) {
			if (trailRefuses(key)) throw new Error(`audit: a key in ${path} looks like an SSN`);
			assertNoSsn(item, `${path}.${key}`);
		}
	}
}
