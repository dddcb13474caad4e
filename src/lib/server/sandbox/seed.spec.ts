import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { sandboxApplications } from '../db/schema';
import { ApplicationCreateRequestSchema, ApplicationResponseSchema } from '../onboarding/schemas';
import { DEMO_APPLICATIONS } from './seed-data';
import { useSandbox } from './spec-helpers';

type Obj = Record<string, unknown>;

const h = useSandbox();

describe('seeded demo data', () => {
	it('is six applications in office 1207, each a full, valid Application document', async () => {
		const rows = await h.database.db.select().from(sandboxApplications);
		expect(rows.map((r) => r.id).sort()).toEqual([50001, 50002, 50003, 50004, 50005, 50006]);
		for (const row of rows) {
			expect(row.officeId).toBe(1207);
			// Stored without the SSN (a digest is kept instead); the rest is the response form.
			const owner = { ...(row.document.OwnerOfficer as Obj), Ownr1_SSN: 'not stored' };
			const parsed = v.safeParse(ApplicationResponseSchema, {
				...row.document,
				OwnerOfficer: owner
			});
			expect(parsed.success, `application ${row.id}`).toBe(true);
		}
		const byId = new Map(rows.map((r) => [r.id, r]));
		expect(byId.get(50005)?.scenario).toBe('identity_fails');
		expect(byId.get(50006)?.scenario).toBe('bureau_unavailable');
		const owner2 = byId.get(50002)!.document.OwnerOfficer as Obj;
		expect(owner2.IsSecondOwner).toBe(true);
		expect(owner2.Ownr2_Legal_Name_First).toBe('Priya');
		const profile3 = byId.get(50003)!.document.Profile as Obj;
		expect(profile3).toMatchObject({
			Merch_Type_Season: true,
			Merch_Type_Season_Start: '05/01/2026',
			Merch_Type_Season_End: '10/15/2026'
		});
	});

	it('is a valid create request for each demo (season dates aside)', () => {
		for (const demo of DEMO_APPLICATIONS) {
			const profile = demo.request.Profile as Obj;
			const body = {
				...demo.request,
				Profile: { ...profile, Merch_Type_Season_Start: null, Merch_Type_Season_End: null }
			};
			expect(v.safeParse(ApplicationCreateRequestSchema, body).success, `demo ${demo.id}`).toBe(
				true
			);
		}
	});
});
