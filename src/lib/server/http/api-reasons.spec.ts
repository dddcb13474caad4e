import { describe, expect, it } from 'vitest';
import { unknownFields } from './api-reasons';

describe('the fields a JSON body should not have', () => {
	it('are named each, masked where they look like an SSN', () => {
		expect(unknownFields({ email: 'a@b.example', emial: 1, '587-31-4926': 2 }, ['email'])).toEqual({
			emial: ['is not an accepted field'],
			'[number]': ['is not an accepted field']
		});
		expect(unknownFields({ email: 'a@b.example' }, ['email'])).toEqual({});
	});

	it('are named up to 20, then said to be more: a body of thousands of keys gets a short answer', () => {
		const body = Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`k${i}`, i]));
		const said = unknownFields(body, ['email']);
		expect(Object.keys(said)).toHaveLength(21);
		expect(said.k0).toEqual(['is not an accepted field']);
		expect(said.k19).toEqual(['is not an accepted field']);
		expect(said.k20).toBeUndefined();
		expect(said.body).toEqual([
			'has more fields that are not accepted: only the first 20 are named'
		]);
	});
});
