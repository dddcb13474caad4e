import { createHmac } from 'node:crypto';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { sandboxDecisions } from '../db/schema';
import { exampleDecisionRequest, exampleDecisionResponse } from '../onboarding/fixtures';
import { MerchantDecisionResponseSchema } from '../onboarding/schemas';
import { API, passIdentity, useSandbox } from './spec-helpers';

type Obj = Record<string, unknown>;

const h = useSandbox();

const decide = (applicationId: number, body: unknown) =>
	h.callJson<Obj>('POST', `${API}/merchantdecision/${applicationId}`, body);

const stored = async () => h.database.db.select().from(sandboxDecisions);

describe('POST merchantdecision', () => {
	it('403 before identity has passed', async () => {
		const res = await decide(50001, exampleDecisionRequest(50001));
		expect(res.status).toBe(403);
		expect(res.body.Message).toEqual(expect.any(String));
	});

	it('200 with the MerchantDecision object once identity passed; a second decision is 409', async () => {
		expect((await passIdentity(h, 50001)).status).toBe(200);
		const res = await decide(50001, exampleDecisionRequest(50001));
		expect(res.status).toBe(200);
		const id = res.body.MerchantDecisionID as number;
		expect(id).toBeGreaterThan(90000);
		expect(res.body).toEqual(exampleDecisionResponse(50001, id));
		expect(v.safeParse(MerchantDecisionResponseSchema, res.body).success).toBe(true);

		const again = await decide(50001, exampleDecisionRequest(50001));
		expect(again.status).toBe(409);
		const list = await h.callJson<Obj[]>('GET', `${API}/application/`);
		expect(list.body.find((i) => i.ApplicationID === 50001)?.Status).toBe('Signed');
	});

	it('stores every field as received, but the SSN only as a keyed HMAC and last four', async () => {
		await passIdentity(h, 50002);
		const sent = { ...exampleDecisionRequest(50002), IsAccepted: false, MerchantSSN: '900782201' };
		const res = await decide(50002, sent);
		expect(res.status).toBe(200);

		const rows = await stored();
		expect(JSON.stringify(rows).includes('900782201')).toBe(false);

		const seen = await h.callJson<Obj>('GET', '/sandbox/_sandbox/decisions/50002');
		expect(seen.status).toBe(200);
		const rest: Obj = { ...sent };
		delete rest.MerchantSSN;
		expect(seen.body).toEqual({
			...rest,
			ssnHmac: createHmac('sha256', h.ssnKey).update('900782201').digest('hex'),
			ssnLast4: '2201',
			receivedAt: h.clock.now.toISOString(),
			MerchantDecisionID: res.body.MerchantDecisionID
		});
		const list = await h.callJson<Obj[]>('GET', `${API}/application/`);
		expect(list.body.find((i) => i.ApplicationID === 50002)?.Status).toBe('Declined');
	});

	it('409 for 50004, which has a decision on record', async () => {
		const res = await decide(50004, exampleDecisionRequest(50004));
		expect(res.status).toBe(409);
		const seeded = await h.callJson<Obj>('GET', '/sandbox/_sandbox/decisions/50004');
		expect(seeded.body).toMatchObject({
			IsAccepted: true,
			MerchantFirstName: 'Rosa',
			ssnLast4: '7788'
		});
	});

	it('404 for an unknown application', async () => {
		expect((await decide(59999, exampleDecisionRequest(59999))).status).toBe(404);
		expect((await h.callJson('GET', '/sandbox/_sandbox/decisions/59999')).status).toBe(404);
	});

	const bad: [string, (b: Obj) => Obj, string[]][] = [
		[
			'a path/body ApplicationID mismatch',
			(b) => ({ ...b, ApplicationID: 50002 }),
			['ApplicationID']
		],
		['a non-digit SSN', (b) => ({ ...b, MerchantSSN: '123-45-6789' }), ['MerchantSSN']],
		['an SSN of the wrong length', (b) => ({ ...b, MerchantSSN: '12345' }), ['MerchantSSN']],
		[
			'wrong types',
			(b) => ({ ...b, IsAccepted: 'yes', MerchantEmail: 42 }),
			['IsAccepted', 'MerchantEmail']
		],
		[
			'a missing flag group and name',
			(b) => {
				const copy = { ...b };
				delete copy.AcceptanceLanguage;
				delete copy.MerchantFirstName;
				return copy;
			},
			['AcceptanceLanguage', 'MerchantFirstName']
		]
	];

	it.each(bad)('400 for %s, naming each field, storing nothing', async (_n, mutate, fields) => {
		await passIdentity(h, 50001);
		const res = await decide(50001, mutate(exampleDecisionRequest(50001) as unknown as Obj));
		expect(res.status).toBe(400);
		expect(res.body.Message).toBe('The request is invalid.');
		for (const f of fields) expect(res.body.ModelState, f).toHaveProperty([f]);
		expect((await stored()).filter((r) => r.applicationId === 50001)).toHaveLength(0);
	});

	it('400 for malformed JSON', async () => {
		const res = await h.call('POST', `${API}/merchantdecision/50001`, '{oops');
		expect(res.status).toBe(400);
		expect((await res.json()).ModelState).toHaveProperty('decision');
	});
});
