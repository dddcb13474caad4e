import { describe, expect, it } from 'vitest';
import { signatureMatches } from './signature';

describe('typed signature', () => {
	it.each([
		['Dana Whitfield', 'Dana', 'Whitfield'],
		['  dana   WHITFIELD ', 'Dana', 'Whitfield'],
		['Jose Nunez', 'José', 'Núñez'],
		['José Núñez', 'Jose', 'Nunez'],
		['Lukasz Strauss', 'Łukasz', 'Strauß'],
		["Sean O'Brien", 'Seán', 'O’Brien'],
		['Sean OBrien', 'Seán', 'O’Brien'],
		['Morgan Q Testwell Ray', 'Morgan Q.', 'Testwell-Ray'],
		['Zoë Ångström', 'Zoe', 'Angstrom']
	])('accepts %j for %s %s', (typed, first, last) => {
		expect(signatureMatches(typed, first, last)).toBe(true);
	});

	it.each([
		['Dana Whitfeld', 'Dana', 'Whitfield'],
		['Whitfield Dana', 'Dana', 'Whitfield'],
		['Dana', 'Dana', 'Whitfield'],
		['Dana Whitfield Jr', 'Dana', 'Whitfield'],
		['D. Whitfield', 'Dana', 'Whitfield'],
		['', 'Dana', 'Whitfield'],
		['...', '.', '.'],
		['Dana Whitfield', '', '']
	])('refuses %j for %s %s', (typed, first, last) => {
		expect(signatureMatches(typed, first, last)).toBe(false);
	});
});
