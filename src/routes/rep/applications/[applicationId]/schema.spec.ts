import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { HandOverSchema } from './schema';

const handOver = (idLast4: string) =>
	v.safeParse(HandOverSchema, { photoIdChecked: 'on', idType: 'Passport', idLast4 });

describe('the hand-over’s ID note', () => {
	it('keeps the last four as typed, spaces aside, or nothing', () => {
		expect(handOver('5678').output).toMatchObject({ idLast4: '5678' });
		expect(handOver(' 56 78 ').output).toMatchObject({ idLast4: '5678' });
		expect(handOver('').output).toMatchObject({ idLast4: null });
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
