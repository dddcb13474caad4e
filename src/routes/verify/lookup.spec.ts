import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ReferenceSchema, referenceLookup } from './lookup';

const said = (typed: string) => {
	const r = v.safeParse(ReferenceSchema, typed);
	return r.success ? r.output : r.issues[0].message;
};

describe('a decision reference typed into /verify', () => {
	it('is taken as printed, with spaces around it and capitals forgiven', () => {
		expect(said('  C7E618FF-565A-4F3B-B3F8-8F367A591A4B ')).toBe(
			'c7e618ff-565a-4f3b-b3f8-8f367a591a4b'
		);
	});

	it('points a decision number (the confirmation page’s) to the reference instead', () => {
		expect(said('90002')).toMatch(
			/^That looks like the decision number from the confirmation page\. Checking takes the decision reference instead/
		);
		expect(said('c7e618ff-565a')).toMatch(/^A reference is the 36 letters, digits and dashes/);
		expect(said(' ')).toBe('Type the reference printed on the document.');
	});

	it('leads to the reference’s page, away from an SSN, or says why not', () => {
		const nines = '00000000-0000-4000-8000-123456789abc';
		expect(referenceLookup(` ${nines.toUpperCase()}`)).toEqual({ to: `/verify/${nines}` });
		for (const ssn of ['372-51-8806', '372518806', '372 51 8806'])
			expect(referenceLookup(ssn), ssn).toEqual({ to: '/verify?refused=ssn' });
		expect(referenceLookup('c7e618ff-565a')).toEqual({
			refused: expect.stringMatching(/^A reference is the 36 letters/)
		});
	});
});
