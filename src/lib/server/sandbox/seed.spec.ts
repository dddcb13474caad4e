import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { sandboxApplications } from '../db/schema';
import { ApplicationCreateRequestSchema, ApplicationResponseSchema } from '../onboarding/schemas';
import { DEMO_APPLICATIONS } from './seed-data';
import { API, useSandbox } from './spec-helpers';

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

	it('adds a fresh copy of 50001 on request, under a new id the service lists and asks about', async () => {
		const first = await h.sandbox.addDemo();
		const second = await h.sandbox.addDemo();
		// A range of their own: a create still gets the id it would have had.
		expect(first.id).toBe(60001);
		expect(second.id).toBe(60002);
		const created = await h.callJson<Obj>(
			'POST',
			`${API}/application`,
			DEMO_APPLICATIONS[1]!.request
		);
		expect(created.status).toBe(200);
		expect((created.body as Obj).ApplicationID).toBe(50101);
		expect(first.business).toBe(`Blue Heron Bakery ${first.id}`);
		const list = await h.callJson<Obj[]>('GET', `${API}/application/`);
		const listed = (list.body as unknown as Obj[]).find((a) => a.ApplicationID === first.id);
		expect(listed).toMatchObject({ Status: 'Pending Signature' });
		const [row] = await h.database.db
			.select()
			.from(sandboxApplications)
			.where(eq(sandboxApplications.id, first.id));
		expect((row!.document.BusinessNames as Obj).DBA_Name).toBe(first.business);
		// Stored as a create stores it: the owner's SSN taken out, its last four kept.
		expect((row!.document.OwnerOfficer as Obj).Ownr1_SSN).toBeNull();
		expect(row!.ownerSsns.Ownr1?.last4).toMatch(/^\d{4}$/);
		const set = await h.callJson('GET', `${API}/questionset/${first.id}`);
		expect(set.status).toBe(200);
		expect((set.body as Obj).Questions).toHaveLength(5);
	});
});
