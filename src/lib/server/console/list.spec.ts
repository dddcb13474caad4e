import { describe, expect, it } from 'vitest';
import { searchFold } from '$lib/fold';
import { matches, type ConsoleRow } from './list';

const row = (over: Partial<ConsoleRow> = {}) =>
	({
		applicationId: 50006,
		business: 'Mesa Verde Pottery',
		legalName: 'Mesa Verde Pottery LLC',
		owner: 'Ana Beltrán',
		ownerEmail: 'ana@mesaverdepottery.example',
		created: '11/23/2026',
		...over
	}) as ConsoleRow;

describe('console search', () => {
	it('ignores case, accents and doubled spaces', () => {
		for (const q of ['Beltran', 'beltrán', 'ANA  BELTRAN', ' ana beltran ', '50006', 'verde pot']) {
			expect(matches(row(), q), q).toBe(true);
		}
		const cafe = row({ business: 'Copper Kettle Café', owner: 'Łukasz Kowalczyk' });
		for (const q of ['cafe', 'Kettle Cafe', 'Lukasz Kowalczyk', 'łukasz']) {
			expect(matches(cafe, q), q).toBe(true);
		}
		expect(matches(row(), 'Beltrano')).toBe(false);
		expect(matches(row(), '')).toBe(true);
	});

	it('folds the letters decomposition leaves alone', () => {
		expect(searchFold('Søren Ærø Straße')).toBe('soren aero strasse');
	});
});
