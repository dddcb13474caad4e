import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
	AcceptanceLanguageSchema,
	AvailableEquipmentListSchema,
	PaymentMethodListSchema,
	SalesTaxRateSchema
} from '../onboarding/schemas';
import { API, useSandbox } from './spec-helpers';

const h = useSandbox();

describe('reference operations', () => {
	it('GET acceptancelanguage: realistic HTML, version 2026-09-01, SeasonalAddendum off', async () => {
		const res = await h.callJson('GET', `${API}/acceptancelanguage`);
		expect(res.status).toBe(200);
		expect(v.safeParse(AcceptanceLanguageSchema, res.body).success).toBe(true);
		expect(res.body).toMatchObject({
			OfficeID: 1207,
			Version: '2026-09-01',
			Accept_TermsAndConditions_Prod: true,
			Accept_PaymentReceipt_Prod: true,
			Accept_IndividualGuaranty_Prod: true,
			Accept_SeasonalAddendum_Prod: false,
			Accept_NextDayFunding_Prod: true,
			SeasonalAddendum_Text: null
		});
		const terms = res.body.TermsAndConditions_Text as string;
		for (const tag of [
			'<h3>',
			'<h4>',
			'<ol>',
			'<ul>',
			'<table>',
			'<thead>',
			'<tbody>',
			'<strong>',
			'<em>'
		]) {
			expect(terms).toContain(tag);
		}
		expect(terms).toMatch(/href="https:/);
		expect(terms).toMatch(/href="mailto:/);
		expect(terms.match(/<h4>/g)!.length).toBeGreaterThanOrEqual(5);
	});

	it('GET availableequipment and paymentmethod', async () => {
		const eq = await h.callJson<unknown[]>('GET', `${API}/availableequipment`);
		expect(v.safeParse(AvailableEquipmentListSchema, eq.body).success).toBe(true);
		expect(eq.body.length).toBeGreaterThan(2);
		const pm = await h.callJson<unknown[]>('GET', `${API}/paymentmethod`);
		expect(v.safeParse(PaymentMethodListSchema, pm.body).success).toBe(true);
		expect(pm.body).toContainEqual({ PaymentMethodID: 1, Name: 'Purchase' });
	});

	it('GET salestaxrate: known place 200, unknown 404, missing parameters 400', async () => {
		const ok = await h.callJson('GET', `${API}/salestaxrate?city=springfield&state=il&zip=62701`);
		expect(ok.status).toBe(200);
		expect(v.safeParse(SalesTaxRateSchema, ok.body).success).toBe(true);
		expect(ok.body).toEqual({ City: 'Springfield', State: 'IL', Zip: '62701', Rate: 8.75 });
		const santaFe = await h.callJson(
			'GET',
			`${API}/salestaxrate?city=Santa%20Fe&state=NM&zip=87501`
		);
		expect(santaFe.body.Rate).toBe(8.4375);
		const unknown = await h.callJson('GET', `${API}/salestaxrate?city=Nowhere&state=ZZ&zip=00000`);
		expect(unknown.status).toBe(404);
		expect(unknown.body.Message).toEqual(expect.any(String));
		const missing = await h.callJson('GET', `${API}/salestaxrate?city=Austin`);
		expect(missing.status).toBe(400);
		expect(Object.keys(missing.body.ModelState as object).sort()).toEqual(['state', 'zip']);
	});
});
