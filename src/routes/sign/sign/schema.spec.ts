import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ConsentSchema } from '../terms/schema';
import {
	DeclineReasonSchema,
	SignatureSchema,
	SignerSchema,
	fieldErrors,
	keptValues
} from './schema';
import { keptReason } from '$lib/server/signing/decline-form';

/** The sign form with these names, the rest of it valid. */
const signer = (firstName: string, lastName = 'Whitfield') =>
	v.safeParse(SignerSchema, {
		firstName,
		lastName,
		email: 'dana@example.com',
		notificationEmail: 'dana@example.com',
		ssn: '123-45-6789'
	});

describe('sign form', () => {
	it('accepts a complete form and keeps the SSN digits only', () => {
		const r = v.safeParse(SignerSchema, {
			firstName: ' Dana ',
			lastName: 'Whitfield',
			email: 'dana@example.com',
			notificationEmail: 'notices@example.com',
			ssn: '123-45 6789'
		});
		expect(r.success && r.output).toMatchObject({ firstName: 'Dana', ssn: '123456789' });
	});

	it('names every missing or bad field in plain words', () => {
		const r = v.safeParse(SignerSchema, { email: 'not-an-email', ssn: '000-12-3456' });
		expect(r.success).toBe(false);
		const errors = fieldErrors(r.success ? [] : r.issues);
		expect(errors).toEqual({
			firstName: 'Enter your first name.',
			lastName: 'Enter your last name.',
			email: 'Enter your email address in the form name@example.com.',
			notificationEmail: 'Enter an email address for notices.',
			ssn: 'That isn’t a valid Social Security Number. Check the digits.'
		});
		expect(JSON.stringify(errors)).not.toContain('3456');
	});

	it('says why an address in other letters is refused, and an overlong one starts with a capital', () => {
		const r = v.safeParse(SignerSchema, {
			firstName: 'Oleg',
			lastName: 'Ivanov',
			email: 'олег@пример.рф',
			notificationEmail: `${'a'.repeat(250)}@x.io`,
			ssn: '123-45-6789'
		});
		expect(fieldErrors(r.success ? [] : r.issues)).toEqual({
			email:
				'Write your email address with the letters a–z, digits and . _ - + @ only: an address with other letters can’t be used here.',
			notificationEmail: 'An email address for notices is too long.'
		});
		const long = v.safeParse(SignerSchema, {
			firstName: 'Oleg',
			lastName: 'Ivanov',
			email: `${'a'.repeat(65)}@x.io`,
			notificationEmail: 'oleg@x.io',
			ssn: '123-45-6789'
		});
		expect(fieldErrors(long.success ? [] : long.issues)).toEqual({
			email:
				'Your email address is too long before the @ (at most 64 characters there): mail can’t be sent to it.'
		});
	});

	it('takes names in any letters, with accents, apostrophes and hyphens, but no emoji, symbols or markup', () => {
		for (const ok of [
			'Márcus',
			'Łukasz',
			'Zoë',
			'Jean-Luc',
			'D’Angelo',
			"O'Neil Jr.",
			'Smith, 3rd',
			'Анна',
			'李',
			'देवी'
		]) {
			expect(signer(ok).success, ok).toBe(true);
		}
		for (const bad of [
			'Marcus😀',
			'Dana👍🏽',
			'Ann♥',
			'Bob™',
			'Tom\u200d😀',
			'Al1\ufe0f\u20e3',
			'<script>alert(1)</script>',
			'Dana <b>',
			'Robert (Bob)',
			'Dana & Co',
			'Dana_W',
			'"Dana"',
			'Dana\u20dd'
		]) {
			const r = signer(bad);
			expect(r.success, bad).toBe(false);
			expect(fieldErrors(r.success ? [] : r.issues)).toEqual({
				firstName:
					'Type your first name using letters, spaces, hyphens, apostrophes, full stops and commas only: emoji, symbols and other marks can’t go on your documents.'
			});
		}
		expect(v.safeParse(SignatureSchema, 'Dana <script>alert(1)</script>').success).toBe(false);
		for (const bad of ['123', '---', '4.']) {
			const r = signer(bad);
			expect(fieldErrors(r.success ? [] : r.issues), bad).toEqual({
				firstName: 'Your first name needs at least one letter.'
			});
		}
		const digits = v.safeParse(SignatureSchema, '123 ---');
		expect(fieldErrors(digits.success ? [] : digits.issues)).toEqual({
			form: 'Your signature needs at least one letter.'
		});
		expect(v.safeParse(SignatureSchema, 'Marcus😀 Ortega').success).toBe(false);
		expect(v.safeParse(SignatureSchema, 'Łukasz Kowalczyk').success).toBe(true);
	});

	it('drops characters nobody can see from names and the signature, so they are kept as seen', () => {
		// A zero-width space, a soft hyphen, a word joiner, a byte-order mark, a zero-width joiner.
		const pasted = signer('\ufeffDan\u00ada\u200d', 'Whit\u200bfield\u2060 ');
		expect(pasted.output).toMatchObject({ firstName: 'Dana', lastName: 'Whitfield' });
		// A Hangul filler looks like a letter to \p{L}, and shows as nothing: no name.
		const blank = signer('\u3164', 'Whitfield');
		expect(fieldErrors(blank.success ? [] : blank.issues)).toEqual({
			firstName: 'Enter your first name.'
		});
		expect(v.safeParse(SignatureSchema, 'Dana Whit\u200bfield').output).toBe('Dana Whitfield');
	});

	it('keeps what was typed, except the SSN', () => {
		const kept = keptValues({ firstName: 'Dana', email: 'x@y', ssn: '123456789' });
		expect(kept).toEqual({ firstName: 'Dana', lastName: '', email: 'x@y', notificationEmail: '' });
		expect(JSON.stringify(kept)).not.toContain('123456789');
	});

	it('asks for the typed signature, and keeps it with its spacing tidied', () => {
		const missing = v.safeParse(SignatureSchema, '   ');
		expect(missing.success ? null : missing.issues[0].message).toBe('Type your full name to sign.');
		const typed = v.safeParse(SignatureSchema, '  Dana \t  Whitfield ');
		expect(typed.success && typed.output).toBe('Dana Whitfield');
	});

	it('keeps what looks like an SSN out of a decline reason, and lets phone numbers in', () => {
		expect(v.safeParse(DeclineReasonSchema, 'Fees too high').success).toBe(true);
		expect(v.safeParse(DeclineReasonSchema, undefined).success).toBe(true);
		expect(v.safeParse(DeclineReasonSchema, 'call me at 217-555-0143').success).toBe(true);
		expect(v.safeParse(DeclineReasonSchema, 'my ssn is 123-45-6789').success).toBe(false);
		expect(v.safeParse(DeclineReasonSchema, 'my ssn is 587/31/4926').success).toBe(false);
		// A textarea's line break arrives as CR LF: the 1,000 the box allows are 1,000 here too.
		const full = `${'a'.repeat(499)}\r\n${'b'.repeat(500)}`;
		expect(v.safeParse(DeclineReasonSchema, full).output).toBe(
			`${'a'.repeat(499)}\n${'b'.repeat(500)}`
		);
		expect(v.safeParse(DeclineReasonSchema, `${full}c`).success).toBe(false);
	});

	it('gives a refused reason back as the box holds it: line breaks counted once, SSN left out', () => {
		const lines = Array.from({ length: 20 }, () => 'x'.repeat(49)).join('\r\n');
		// 20 × 49 characters and 19 breaks: 999 in the box, 1,018 as sent.
		const kept = keptReason(`${lines} 123-45-6789`);
		expect(kept.startsWith(lines.replace(/\r\n/g, '\n'))).toBe(true);
		expect(kept).not.toContain('\r');
		expect(kept).not.toMatch(/\d{3}-\d{2}-\d{4}/);
		expect(kept.length).toBeLessThanOrEqual(1000);
	});
});

describe('the record holds no SSN typed into another field', () => {
	it('refuses one in a name, an address or the signature, in words of its own, and never shows it back', () => {
		const r = v.safeParse(SignerSchema, {
			firstName: 'Dana 123456789',
			lastName: 'Whitfield',
			email: '123-45-6789@example.com',
			notificationEmail: 'notices@example.com',
			ssn: '123-45-6789'
		});
		expect(fieldErrors(r.success ? [] : r.issues)).toEqual({
			firstName:
				'Please leave your Social Security Number out of your first name: it looks like one is there.',
			email:
				'Your email address looks like it holds a Social Security Number: please use another address.'
		});
		// An SSN alone in a name (it has no letter either) is told as an SSN.
		const alone = v.safeParse(SignerSchema, {
			firstName: '587-31-4926',
			lastName: '５８７ ３１ ４９２６',
			email: 'dana@example.com',
			notificationEmail: 'notices@example.com',
			ssn: '587-31-4926'
		});
		expect(fieldErrors(alone.success ? [] : alone.issues)).toEqual({
			firstName:
				'Please leave your Social Security Number out of your first name: it looks like one is there.',
			lastName:
				'Please leave your Social Security Number out of your last name: it looks like one is there.'
		});
		expect(v.safeParse(SignatureSchema, '587-31-4926').issues?.[0]?.message).toBe(
			'Please leave your Social Security Number out of your signature: it looks like one is there.'
		);
		const signature = v.safeParse(SignatureSchema, 'Dana 123 45 6789 Whitfield');
		expect(signature.issues?.[0]?.message).toBe(
			'Please leave your Social Security Number out of your signature: it looks like one is there.'
		);
		const kept = keptValues({
			firstName: 'Dana 123456789',
			lastName: 'Whitfield',
			email: '123-45-6789@example.com',
			notificationEmail: 'notices@example.com'
		});
		expect(kept).toEqual({
			firstName: 'Dana ',
			lastName: 'Whitfield',
			email: '@example.com',
			notificationEmail: 'notices@example.com'
		});
	});

	it('takes numbers that are not SSN-shaped: a phone number, a suite, ten digits', () => {
		const r = v.safeParse(SignerSchema, {
			firstName: 'Dana',
			lastName: 'Whitfield III',
			email: 'dana.2175550143@example.com',
			notificationEmail: 'notices1234567890@example.com',
			ssn: '123-45-6789'
		});
		expect(r.success).toBe(true);
	});
});

describe('consent form', () => {
	it('asks for the tick in plain words when it is missing', () => {
		const r = v.safeParse(ConsentSchema, { version: 'a'.repeat(64) });
		expect(r.success ? null : r.issues[0].message).toBe(
			'Tick the box to agree to use electronic records before you continue.'
		);
		expect(v.safeParse(ConsentSchema, { consent: 'yes', version: 'a'.repeat(64) }).success).toBe(
			true
		);
	});
});
