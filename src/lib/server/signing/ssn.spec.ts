import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { assertNoSsn } from '$lib/server/audit/guard';
import {
	isPossibleSsn,
	looksLikeSsn,
	maskedCut,
	maskedSsn,
	noSsn,
	shownBack,
	shownBackCut,
	ssnDigits,
	withoutSsn
} from './ssn';

const SEED = Number(process.env.PROPERTY_SEED ?? 20_260_901);
const digits = (n: number) =>
	fc.array(fc.constantFrom(...'0123456789'), { minLength: n, maxLength: n }).map((d) => d.join(''));
/** Zero to three characters that are neither letters nor digits: how people separate groups. */
const separator = fc
	.array(fc.constantFrom(' ', '-', '/', '.', '_', '–', '—', ':', ',', '\u00a0', '\u200b', '|'), {
		maxLength: 3
	})
	.map((s) => s.join(''));
/** Text around a number that does not run into it. */
const prose = fc.constantFrom('', 'my ssn is ', 'Reason: ', '(', 'call me: ', 'x ');
const after = fc.constantFrom('', '.', ' thanks', ')', ' or not');
/** A piece of typed text: nine digits, 3-2-4 digits, anything, or one of `also`. */
const typed = (...also: string[]) =>
	fc.oneof(
		digits(9),
		fc.tuple(digits(3), digits(2), digits(4)).map(([a, b, c]) => `${a}-${b}-${c}`),
		fc.string({ maxLength: 6 }),
		fc.constantFrom(...also)
	);

describe('SSN rules', () => {
	it('accepts an ordinary number', () => {
		expect(isPossibleSsn('123456789')).toBe(true);
		expect(isPossibleSsn('899451234')).toBe(true);
	});

	it.each([
		['000123456', 'area 000'],
		['666123456', 'area 666'],
		['900123456', 'area 9xx'],
		['999991234', 'area 9xx'],
		['123001234', 'group 00'],
		['123450000', 'serial 0000'],
		['078051120', 'voided Woolworth number'],
		['219099999', 'voided advertisement number'],
		['12345678', 'too short'],
		['1234567890', 'too long'],
		['12345678a', 'not digits']
	])('refuses %s (%s)', (ssn) => {
		expect(isPossibleSsn(ssn)).toBe(false);
	});

	it('drops separators people type', () => {
		expect(ssnDigits('123-45 6789')).toBe('123456789');
		expect(ssnDigits('123.45.6789')).toBe('123456789');
		expect(ssnDigits('123–45—6789')).toBe('123456789');
		// Pasted with invisible characters: nine digits are seen, and read.
		expect(ssnDigits('123\u200b45\u200b6789')).toBe('123456789');
		expect(ssnDigits('\ufeff123-45-6789\u2060')).toBe('123456789');
		// Typed full-width: the same number.
		expect(ssnDigits('１２３－４５－６７８９')).toBe('123456789');
		expect(isPossibleSsn(ssnDigits('１２３ ４５ ６７８９'))).toBe(true);
		// Digits of another script are not read as these (the form asks for 0–9).
		expect(ssnDigits('١٢٣-٤٥-٦٧٨٩')).not.toMatch(/^\d{9}$/);
	});
});

describe('what looks like an SSN in free text', () => {
	it.each([
		'587/31/4926',
		'587-31-4926',
		'587 31 4926',
		'587.31.4926',
		'587 - 31 - 4926',
		'587314926',
		'SSN:587_31_4926!',
		'５８７－３１－４９２６',
		'٥٨٧٣١٤٩٢٦',
		'587\u200b31\u200b4926',
		// 3-3-3, as the SSN field takes it too (ssnDigits).
		'587 314 926',
		'587-314-926',
		'587 - 314 - 926',
		'５８７ ３１４ ９２６'
	])('refuses %s', (text) => {
		expect(looksLikeSsn(text)).toBe(true);
		expect(looksLikeSsn(`I'd rather not: ${text}. Thanks`)).toBe(true);
	});

	it.each([
		'call me at 217-555-0143',
		'(217) 555-0143',
		'+1 217 555 0143',
		'2175550143',
		'The fees are too high.',
		'We met on 12/31/2024 at 10:30.',
		'Invoice 1234-5678-9012-3456',
		'2 terminals, 3 locations, 4 owners',
		'217.555.0143',
		'1 217 555 0143',
		'Card 4111 1111 1111 1111',
		'version 1.2.3.4',
		// An Android build, as a User-Agent names it.
		'Pixel 8 Build/UQ1A.240205.004',
		// An EIN, a date and time, sums, 3-3-3 that no SSN can be, a UUID.
		'Our EIN 12-3456789 is wrong',
		'We spoke on 2024-01-15 9:30',
		'on 01-15-2024 9:30',
		'a loan of 125 000 000',
		'912 345 678',
		'587 314 926 001',
		'0b5c9c3e-1234-4567-8901-234567890123',
		''
	])('accepts %s', (text) => {
		expect(looksLikeSsn(text)).toBe(false);
	});

	it('refuses any 3-2-4 digits, whatever separates them', () => {
		fc.assert(
			fc.property(
				prose,
				digits(3),
				separator,
				digits(2),
				separator,
				digits(4),
				after,
				(p, a, s1, b, s2, c, q) => {
					expect(looksLikeSsn(`${p}${a}${s1}${b}${s2}${c}${q}`)).toBe(true);
				}
			),
			{ seed: SEED, numRuns: 500 }
		);
	});

	it('accepts phone numbers written any usual way', () => {
		fc.assert(
			fc.property(
				prose,
				fc.constantFrom('', '+1 ', '1-', '(', '+1 ('),
				digits(3),
				fc.constantFrom('-', ' ', '.', ') ', ')'),
				digits(3),
				fc.constantFrom('-', ' ', '.'),
				digits(4),
				after,
				(p, cc, a, s1, b, s2, c, q) => {
					expect(looksLikeSsn(`${p}${cc}${a}${s1}${b}${s2}${c}${q}`)).toBe(false);
				}
			),
			{ seed: SEED, numRuns: 500 }
		);
	});

	it('accepts text without digits', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
				fc.pre(!/\p{N}/u.test(text));
				expect(looksLikeSsn(text)).toBe(false);
			}),
			{ seed: SEED, numRuns: 300 }
		);
	});

	it('reads a run of spaces between the groups as one separator, taken whole', () => {
		expect(looksLikeSsn('523 -  41  - 7990')).toBe(true);
		expect(looksLikeSsn('523\u00a0\u00a0\u00a0-\u00a0\u00a041 7990')).toBe(true);
		expect(looksLikeSsn('523      41-7990')).toBe(true);
		// Seven spaces part two numbers: never read as two separators (a run split across the
		// places between the groups would be, and every split tried on a long post).
		expect(looksLikeSsn('523       41-7990')).toBe(false);
		expect(looksLikeSsn(`123${' '.repeat(10)}12${' '.repeat(18)}x`.repeat(2_000))).toBe(false);
	});

	it('shows back, and masks, text built to nest numbers in numbers, without a pass for each', () => {
		let nested = '523417890';
		for (let i = 0; i < 5_000; i++) nested = `123-45-(${nested})-6789`;
		const check = v.pipe(v.string(), noSsn('no SSN'));
		for (const out of [withoutSsn(nested), maskedSsn(nested, '[number]')]) {
			expect(v.safeParse(check, out).success).toBe(true);
		}
	});

	it('cuts to length before it looks, and looks again after: no nine digits of a longer number are left', () => {
		const typed = `${'a'.repeat(290)} 5234177620`;
		expect(shownBackCut(typed, 300)).toBe(`${'a'.repeat(290)} `);
		expect(shownBackCut('Dana 587-31-4926 Reyes', 100)).toBe('Dana Reyes');
		// Ten digits are no SSN; cut to nine, they would be one: masked.
		expect(maskedCut('file 5234177620.pdf', '[number]', 14)).toBe('file [number]');
		expect(maskedCut('Dana 587-31-4926.pdf', '[number]', 100)).toBe('Dana [number].pdf');
	});

	it('shows back the rest of the text, without the number', () => {
		expect(withoutSsn('Not now (587/31/4926), call 217-555-0143')).toBe(
			'Not now (), call 217-555-0143'
		);
		// One space where the number stood between two words, not two; line breaks kept.
		expect(withoutSsn('My number is 587 31 4926 if you need it')).toBe(
			'My number is if you need it'
		);
		expect(withoutSsn('Number:\n587-31-4926\nthanks')).toBe('Number:\n\nthanks');
	});

	it('masks only what looks like an SSN, and gives other text back as it came', () => {
		expect(maskedSsn('Dana ﬁsh, Ｔｏｋｙｏ', '[number]')).toBe('Dana ﬁsh, Ｔｏｋｙｏ');
		expect(maskedSsn('Dana ﬁsh 587-31-4926', '[number]')).toBe('Dana fish [number]');
		expect(maskedSsn('Ref 587\u200b31\u200b4926', '[number]')).toBe('Ref [number]');
	});

	it('refuses at the form whatever the trail would refuse to record', () => {
		// Text a form takes and the trail keeps (names, addresses, the ID type): if the trail's guard
		// would throw on it, the forms' check refuses it first, with words of its own. (The two
		// rules differ: the guard refuses 000-00-0000 after a fullwidth digit, which the rules
		// here read as part of a longer number.)
		const check = v.pipe(v.string(), noSsn('no SSN'));
		const piece = typed('@example.com', 'NY license ', ' ', '-', 'x', '1', '.', '\u200b', '１');
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 5 }), (parts) => {
				const text = parts.join('');
				let guarded = false;
				try {
					assertNoSsn(text);
				} catch {
					guarded = true;
				}
				if (guarded) expect(v.safeParse(check, text).success).toBe(false);
			}),
			{ seed: SEED, numRuns: 2000 }
		);
		expect(v.safeParse(check, '１000-00-0000').success).toBe(false);
		expect(v.safeParse(check, 'Suite 12, call 217-555-0143').success).toBe(true);
	});

	it('shows back nothing the forms refuse, and logs nothing either, however the digits are written', () => {
		const check = v.pipe(v.string(), noSsn('no SSN'));
		const piece = typed(' ', '-', 'x', '1', '\u200b', '１', '٣', '５-', ' 12');
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 6 }), (parts) => {
				const text = parts.join('');
				expect(v.safeParse(check, withoutSsn(text)).success).toBe(true);
				expect(v.safeParse(check, maskedSsn(text, '[number]')).success).toBe(true);
			}),
			{ seed: SEED, numRuns: 2000 }
		);
		// The trail's guard reads 123-45-6789 after an Arabic-Indic or a fullwidth digit as a number
		// of its own; these rules read one longer number. The form refuses it: it does not come back.
		expect(v.safeParse(check, 'call ٣123-45-6789').success).toBe(false);
		expect(withoutSsn('call ٣123-45-6789 please')).toBe('call ٣ please');
		expect(withoutSsn('ref １123-45-6789')).toBe('ref 1');
		expect(maskedSsn('call ٣123-45-6789', '[number]')).toBe('call ٣[number]');
		// A superscript digit, which NFKC makes part of a ten-digit number, stands apart as typed.
		expect(v.safeParse(check, 'Marcus ¹523417890').success).toBe(false);
		expect(v.safeParse(check, '523417762² thanks').success).toBe(false);
		expect(maskedSsn('Mozilla ¹523-41-7707', '[number]')).toBe('Mozilla 1[number]');
		expect(withoutSsn('my number is ¹523417762')).toBe('my number is 1');
	});

	it('shows typed text back as typed, or without what looks like an SSN', () => {
		expect(shownBack('Dana ﬁsh')).toBe('Dana ﬁsh');
		expect(shownBack('NY license 123456789')).toBe('NY license ');
		expect(shownBack('123-45-6789@example.com')).toBe('@example.com');
	});
});
