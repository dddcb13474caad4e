import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CopyLinkSchema, HandOverSchema, RevokeLinkSchema, SendLinkSchema } from './schema';

const handOver = (idLast4: string) =>
	v.safeParse(HandOverSchema, { photoIdChecked: 'on', idType: 'Passport', idLast4 });

describe('the hand-over’s ID note', () => {
	it('keeps the last four as typed, in capitals, spaces aside, or nothing', () => {
		expect(handOver('5678').output).toMatchObject({ idLast4: '5678' });
		expect(handOver(' 56 78 ').output).toMatchObject({ idLast4: '5678' });
		expect(handOver('').output).toMatchObject({ idLast4: null });
		expect(handOver('k7q2').output).toMatchObject({ idLast4: 'K7Q2' });
	});

	it('refuses a whole number rather than keep its first four as the last four', () => {
		const parsed = handOver('12345678');
		expect(parsed.success).toBe(false);
		expect(parsed.issues?.[0]?.message).toBe(
			'Type only the last four characters of the ID number: the portal keeps no more of it.'
		);
		expect(handOver('D123 4567').success).toBe(false);
		expect(handOver('56?8').success).toBe(false);
	});

	it('keeps the kind of ID as seen, and refuses emoji the certificate cannot print', () => {
		const idType = (t: string) =>
			v.safeParse(HandOverSchema, { photoIdChecked: 'on', idType: t, idLast4: '' });
		expect(idType('Driver\u200b’s license ').output).toMatchObject({ idType: 'Driver’s license' });
		expect(idType('\u200b').output).toMatchObject({ idType: null });
		const emoji = idType('Driver’s license 🚗');
		expect(emoji.success).toBe(false);
		expect(emoji.issues?.[0]?.message).toBe(
			'Name the kind of ID in words, e.g. Driver’s license: emoji and symbols can’t go on the certificate.'
		);
	});
});

describe('what a rep types holds no SSN: the trail would refuse to record it', () => {
	it('refuses a whole ID number in the ID type, and an SSN-shaped address', () => {
		const idType = v.safeParse(HandOverSchema, {
			photoIdChecked: 'on',
			idType: 'NY license 123456789',
			idLast4: ''
		});
		expect(idType.issues?.[0]?.message).toBe(
			'Leave numbers that look like an SSN out of the ID type: only the ID number’s last four are noted, in the field beside it.'
		);
		const send = v.safeParse(SendLinkSchema, { email: '123456789@example.com' });
		expect(send.issues?.[0]?.message).toBe(
			'That address looks like it holds a Social Security Number, which the portal can’t keep on record: use another address.'
		);
		expect(v.safeParse(SendLinkSchema, { email: 'dana.2175550143@example.com' }).success).toBe(
			true
		);
	});
});

describe('the link a page showed, posted with Send and Make a link', () => {
	const id = '0b6c3f1e-5d2a-4c8e-9f1a-2b3c4d5e6f70';
	it('is a link’s id, none, or absent (a page from before it: no guard)', () => {
		expect(v.parse(CopyLinkSchema, { shown: id })).toEqual({ shown: id });
		expect(v.parse(CopyLinkSchema, { shown: 'none' })).toEqual({ shown: null });
		expect(v.parse(CopyLinkSchema, {})).toEqual({ shown: undefined });
		expect(v.parse(RevokeLinkSchema, { shown: id })).toEqual({ shown: id });
		expect(v.safeParse(RevokeLinkSchema, { shown: 'x' }).issues?.[0]?.message).toBe(
			'This page is out of date: reload it and try again.'
		);
		const sent = v.parse(SendLinkSchema, { shown: 'none', email: 'dana@example.com' });
		expect(sent).toEqual({ shown: null, email: 'dana@example.com' });
	});

	it('refuses anything else in our words', () => {
		for (const shown of ['', 'null', `${id}x`, '../1', ['none', id]]) {
			const parsed = v.safeParse(CopyLinkSchema, { shown });
			expect(parsed.success).toBe(false);
			expect(parsed.issues?.[0]?.message).toBe(
				'This page is out of date: reload it and try again.'
			);
		}
	});
});
