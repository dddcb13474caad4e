import { describe, expect, it } from 'vitest';
import { isPossibleSsn, ssnDigits } from './ssn';

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
	});
});
