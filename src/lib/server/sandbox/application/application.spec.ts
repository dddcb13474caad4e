import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { sandboxApplications } from '../../db/schema';
import { exampleCreateRequest, exampleCreateResponse } from '../../onboarding/fixtures';
import { ApplicationListSchema, ApplicationResponseSchema } from '../../onboarding/schemas';
import { API, useSandbox } from '../spec-helpers';

type Obj = Record<string, unknown>;

const h = useSandbox();

const create = (body: unknown, office = 1207) =>
	h.callJson<Obj>('POST', `/sandbox/api/office/${office}/application`, body);

async function storedCount() {
	return (await h.database.db.select().from(sandboxApplications)).length;
}

describe('POST application', () => {
	it('assigns an id and answers with the seven observed differences and the renames', async () => {
		const res = await create(exampleCreateRequest());
		expect(res.status).toBe(200);
		const app = res.body;
		expect(v.safeParse(ApplicationResponseSchema, app).success).toBe(true);
		expect(app.ApplicationID).toBe(50101);
		const terminal = ((app.EquipmentSetupForm as Obj).AssignedTerminals as Obj[])[0]!;
		const tid = terminal.AssignedTerminalID as number;
		expect(tid).toBeGreaterThan(70000);
		// Everything else is exactly the client's expected answer.
		expect(app).toEqual(
			expect.objectContaining({
				...exampleCreateResponse(50101, tid),
				ChargeCardNetwork: expect.anything()
			})
		);

		// 1. OfficeNo and Inspect_Office as strings
		expect(app.OfficeNo).toBe('1207');
		expect((app.SiteSurvey as Obj).Inspect_Office).toBe('1207');
		// 2. OtherFees and BillingService null
		expect(app.OtherFees).toBeNull();
		expect(app.BillingService).toBeNull();
		// 3. ESF_ShippingMethod 0
		expect((app.EquipmentSetupForm as Obj).ESF_ShippingMethod).toBe(0);
		// 4. AssignedSoftwareID = submitted AvailableSoftwareID; AvailableSoftwareID null
		expect(terminal.AssignedSoftware).toMatchObject({
			AssignedSoftwareID: 4,
			AvailableSoftwareID: null,
			AssignedTerminalID: tid
		});
		// 5. PaymentMethod with null members, AssignedPeripherals []
		expect(terminal.PaymentMethod).toEqual({ PaymentMethodID: null, Name: null });
		expect(terminal.AssignedPeripherals).toEqual([]);
		// 6. fee strings as numbers
		expect((app.ChargeCardNetwork as Obj).Net_Retail_Trans_Fee).toBe(0.1);
		expect((app.GatewayMerchants as Obj).GM_PmntGtwyVTerm_Mon_Fee).toBe(10);
		expect((app.ConsolidatedBilling as Obj).RF_CB_Mon_Fee).toBe(0);
		// 7. service-assigned AssignedTerminalID (submitted 0), ApplicationID filled in
		expect(terminal.ApplicationID).toBe(50101);
		expect(terminal.AvailableTerminalID).toBe(12);
		// Renames
		expect(app.SiteSurvey).toHaveProperty('Inspect_Rep_Mgr', null);
		expect(app.SiteSurvey).not.toHaveProperty('Inspect_Mgr');
		expect(app.ChargeCardNetwork).toHaveProperty('Net_Retail_CNP_Downgrade', 0.5);
		expect(app.ChargeCardNetwork).not.toHaveProperty('Net_Retail_CNP_Dwngrd');
		expect(app.EquipmentSetupForm).not.toHaveProperty('Leases');
		expect((app.EquipmentSetupForm as Obj).Lease).toMatchObject({
			LeaseCompanyID: 0,
			LeasedTerminals: []
		});
		// Response-only members
		expect(app.AccountUpdater).toEqual({
			AcctUpdater_Accept: null,
			AcctUpdater_Prod: null,
			AcctUpdater_Fee: null
		});
		expect(app).toHaveProperty('MerchantSetupFees', null);
		expect((app.OwnerOfficer as Obj).Ownr2_Legal_Name_First).toBeNull();
	});

	it('stores the application for the list and the PDF, without the SSN in plain text', async () => {
		const { body } = await create(exampleCreateRequest());
		const list = await h.callJson<Obj[]>('GET', `${API}/application/`);
		expect(list.body.map((i) => i.ApplicationID)).toContain(body.ApplicationID);
		const pdf = await h.call('GET', `${API}/pdf/${String(body.ApplicationID)}`);
		expect(pdf.status).toBe(200);
		const rows = await h.database.db.select().from(sandboxApplications);
		const stored = JSON.stringify(rows);
		expect(stored.includes('"Ownr1_SSN":"')).toBe(false);
		expect(stored.includes('"123456789"')).toBe(false);
		const row = rows.find((r) => r.id === body.ApplicationID)!;
		expect(row.ownerSsns.Ownr1?.last4).toBe('6789');
		expect(row.submitted.OtherFees).toMatchObject({ RF_Statement_Fee: 10 });
	});

	it('hands out new ids to each create', async () => {
		const a = await create(exampleCreateRequest());
		const b = await create(exampleCreateRequest());
		expect(b.body.ApplicationID).toBe((a.body.ApplicationID as number) + 1);
	});

	it('keeps a second owner when IsSecondOwner is true', async () => {
		const req = exampleCreateRequest() as unknown as Obj;
		Object.assign(req.OwnerOfficer as Obj, {
			IsSecondOwner: true,
			Ownr2_Legal_Name_First: 'Sam',
			Ownr2_Legal_Name_Last: 'Ode',
			Ownr2_DOB: '1/2/1990',
			Ownr2_SSN: '900112222',
			Ownr2_Percent: 40
		});
		const res = await create(req);
		expect(res.status).toBe(200);
		expect((res.body.OwnerOfficer as Obj).Ownr2_Legal_Name_First).toBe('Sam');
	});
});

describe('POST application with bad input: 400 naming each field, nothing stored', () => {
	const cases: [string, (r: Obj) => unknown, string[]][] = [
		[
			'wrong types',
			(r) => {
				r.RepNo = 'thirty-one';
				(r.Profile as Obj).Avg_Tkt = 'lots';
				(r.OwnerOfficer as Obj).IsSecondOwner = 'no';
				return r;
			},
			['RepNo', 'Profile.Avg_Tkt', 'OwnerOfficer.IsSecondOwner']
		],
		[
			'missing groups',
			(r) => {
				delete r.BusinessNames;
				delete r.EquipmentSetupForm;
				return r;
			},
			['BusinessNames', 'EquipmentSetupForm']
		],
		[
			'a non-digit SSN',
			(r) => {
				(r.OwnerOfficer as Obj).Ownr1_SSN = '123-45-6789';
				return r;
			},
			['OwnerOfficer.Ownr1_SSN']
		],
		['an ApplicationID on create', (r) => ({ ...r, ApplicationID: 50001 }), ['ApplicationID']],
		[
			'a fee that is not a number',
			(r) => {
				(r.GatewayMerchants as Obj).GM_PmntGtwyVTerm_Mon_Fee = 'ten';
				return r;
			},
			['GatewayMerchants.GM_PmntGtwyVTerm_Mon_Fee']
		],
		[
			'a bad terminal inside the array',
			(r) => {
				const t = ((r.EquipmentSetupForm as Obj).AssignedTerminals as Obj[])[0]!;
				t.Price = 'free';
				return r;
			},
			['EquipmentSetupForm.AssignedTerminals[0].Price']
		],
		['an office that is not the path’s', (r) => ({ ...r, OfficeNo: 9999 }), ['OfficeNo']],
		[
			'a second owner without a name',
			(r) => {
				(r.OwnerOfficer as Obj).IsSecondOwner = true;
				return r;
			},
			['OwnerOfficer.Ownr2_Legal_Name_First', 'OwnerOfficer.Ownr2_SSN']
		],
		['not an object', () => [1, 2], ['body']]
	];

	it.each(cases)('%s', async (_name, mutate, fields) => {
		const before = await storedCount();
		const res = await create(mutate(exampleCreateRequest() as unknown as Obj));
		expect(res.status).toBe(400);
		expect(res.body.Message).toBe('The request is invalid.');
		const modelState = res.body.ModelState as Record<string, string[]>;
		for (const field of fields) {
			expect(modelState[field], field).toEqual([expect.any(String)]);
		}
		expect(await storedCount()).toBe(before);
	});

	it('malformed JSON', async () => {
		const before = await storedCount();
		const res = await h.call('POST', `${API}/application`, '{"ApplicationID": null,');
		expect(res.status).toBe(400);
		expect(await res.json()).toEqual({
			Message: 'The request is invalid.',
			ModelState: { application: ['The request body is not valid JSON.'] }
		});
		expect(await storedCount()).toBe(before);
	});

	it('an empty body', async () => {
		const res = await h.call('POST', `${API}/application`, '');
		expect(res.status).toBe(400);
		expect((await res.json()).ModelState).toHaveProperty('application');
	});
});

describe('GET application/', () => {
	it('lists the office’s applications with their status', async () => {
		const res = await h.callJson<Obj[]>('GET', `${API}/application/`);
		expect(res.status).toBe(200);
		expect(v.safeParse(ApplicationListSchema, res.body).success).toBe(true);
		expect(res.body.map((i) => i.ApplicationID)).toEqual([
			50001, 50002, 50003, 50004, 50005, 50006
		]);
		expect(res.body[0]).toEqual({
			ApplicationID: 50001,
			OfficeNo: '1207',
			RepNo: 31,
			DBA_Name: 'Blue Heron Bakery',
			Legal_Name: 'Blue Heron Bakery LLC',
			Ownr1_Legal_Name_First: 'Dana',
			Ownr1_Legal_Name_Last: 'Whitfield',
			Ownr1_Email: 'dana@blueheronbakery.example',
			CreatedDate: '10/30/2026',
			Status: 'Pending Signature'
		});
		expect(res.body.find((i) => i.ApplicationID === 50004)?.Status).toBe('Signed');
	});

	it('dates an application by the service’s own day, not UTC’s (7 p.m. in Chicago)', async () => {
		h.clock.now = new Date('2026-11-03T01:00:00Z');
		const made = await create(exampleCreateRequest());
		const list = await h.callJson<Obj[]>('GET', `${API}/application/`);
		const entry = list.body.find((i) => i.ApplicationID === made.body.ApplicationID);
		expect(entry?.CreatedDate).toBe('11/02/2026');
	});

	it('answers the same without the trailing slash, and [] for another office', async () => {
		const plain = await h.callJson<Obj[]>('GET', `${API}/application`);
		expect(plain.body).toHaveLength(6);
		const other = await h.callJson<Obj[]>('GET', '/sandbox/api/office/4000/application/');
		expect(other.body).toEqual([]);
	});
});
