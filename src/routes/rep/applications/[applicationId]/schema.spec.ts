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
});
