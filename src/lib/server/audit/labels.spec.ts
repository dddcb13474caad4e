import { describe, expect, it } from 'vitest';
import { dataLines, typeLabel } from './labels';

describe('certificate labels', () => {
	it('turns types into plain words', () => {
		expect(typeLabel('consent.given')).toBe('Consent to electronic records given');
		expect(typeLabel('rep.tablet_unlocked')).toBe('Rep: tablet unlocked');
		expect(typeLabel('custom')).toBe('Custom');
	});

	it('flattens data into key: value lines', () => {
		expect(dataLines({ a: 1, b: { c: [true, null], d: [] }, e: 'x', f: {} })).toEqual([
			'a: 1',
			'b.c[0]: yes',
			'b.c[1]: none',
			'b.d: (none)',
			'e: x',
			'f: (none)'
		]);
		expect(dataLines({})).toEqual([]);
	});
});
