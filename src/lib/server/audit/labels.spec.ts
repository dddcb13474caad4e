import { describe, expect, it } from 'vitest';
import { dataLines, durationWords, typeLabel } from './labels';

describe('certificate labels', () => {
	it('turns types into plain words', () => {
		expect(typeLabel('consent.given')).toBe('Consent to electronic records given');
		expect(typeLabel('rep.tablet_unlocked')).toBe('Rep: tablet unlocked');
		expect(typeLabel('custom')).toBe('Custom');
	});

	it('says a limit exactly: in minutes when it is whole minutes, else in seconds', () => {
		expect(durationWords(180)).toBe('3 minutes');
		expect(durationWords(60)).toBe('1 minute');
		expect(durationWords(90)).toBe('90 seconds');
		expect(durationWords(1)).toBe('1 second');
		expect(durationWords(150)).toBe('150 seconds');
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
