import { describe, expect, it } from 'vitest';
import { searchFold } from '$lib/fold';
import type { ApplicationListItem } from '$lib/server/onboarding';
import { holdsApplication, matches, type ConsoleRow } from './list';

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

	it('finds every word typed, in any order and in any of the fields', () => {
		for (const q of [
			'Beltran Ana',
			'Beltrán, Ana',
			'beltran,ana',
			'Beltrán;Ana',
			'pottery mesa',
			'mesa 50006',
			'ana verde',
			'LLC ana@'
		]) {
			expect(matches(row(), q), q).toBe(true);
		}
		for (const q of ['Beltran Marcus', 'mesa 50007', 'pottery inc']) {
			expect(matches(row(), q), q).toBe(false);
		}
	});

	it('folds the letters decomposition leaves alone', () => {
		expect(searchFold('Søren Ærø Straße')).toBe('soren aero strasse');
	});

	it('takes a nine-digit number for an application only when the office lists it', () => {
		const items = [
			{ ApplicationID: 123456789, OfficeNo: 1207 },
			{ ApplicationID: 50006, OfficeNo: '1207' },
			{ ApplicationID: 987654321, OfficeNo: 1300 }
		] as unknown as ApplicationListItem[];
		expect(holdsApplication(items, 1207, '123456789')).toBe(true);
		expect(holdsApplication(items, 1207, '050006')).toBe(true);
		// Another office's application, or a number nobody has: an SSN as far as the console knows.
		expect(holdsApplication(items, 1207, '987654321')).toBe(false);
		expect(holdsApplication(items, 1207, '372518806')).toBe(false);
		expect(holdsApplication([], 1207, '123456789')).toBe(false);
	});
});
