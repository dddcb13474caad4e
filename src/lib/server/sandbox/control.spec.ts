import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '.';
import { API, ORIGIN, useSandbox } from './spec-helpers';

type Obj = Record<string, unknown>;

const h = useSandbox();
const CONTROL = '/sandbox/_sandbox';

const OPERATION_CALLS: Record<string, [string, string]> = {
	acceptancelanguage: ['GET', `${API}/acceptancelanguage`],
	createapplication: ['POST', `${API}/application`],
	listapplications: ['GET', `${API}/application/`],
	availableequipment: ['GET', `${API}/availableequipment`],
	questionset: ['GET', `${API}/questionset/50001`],
	answerset: ['POST', `${API}/answerset/50001`],
	merchantdecision: ['POST', `${API}/merchantdecision/50001`],
	paymentmethod: ['GET', `${API}/paymentmethod`],
	pdf: ['GET', `${API}/pdf/50001`],
	salestaxrate: ['GET', `${API}/salestaxrate?city=Austin&state=TX&zip=78701`]
};

describe('faults', () => {
	it.each(OPERATIONS)('%s answers the injected status with a {Message} body', async (op) => {
		const put = await h.call('PUT', `${CONTROL}/faults/${op}`, { status: 503 });
		expect(put.status).toBe(200);
		const [method, path] = OPERATION_CALLS[op]!;
		const res = await h.callJson(method, path, method === 'POST' ? {} : undefined);
		expect(res.status).toBe(503);
		expect(res.body).toEqual({ Message: expect.any(String) });
	});

	it('serves a text body or an empty one when asked', async () => {
		await h.call('PUT', `${CONTROL}/faults/paymentmethod`, {
			status: 502,
			body: 'Bad gateway, try later',
			contentType: 'text/plain'
		});
		const text = await h.call('GET', `${API}/paymentmethod`);
		expect(text.status).toBe(502);
		expect(text.headers.get('content-type')).toBe('text/plain');
		expect(await text.text()).toBe('Bad gateway, try later');

		await h.call('PUT', `${CONTROL}/faults/paymentmethod`, { status: 500, body: '' });
		const empty = await h.call('GET', `${API}/paymentmethod`);
		expect(empty.status).toBe(500);
		expect(await empty.text()).toBe('');
	});

	it('delays by latencyMs and then answers normally', async () => {
		await h.call('PUT', `${CONTROL}/faults/paymentmethod`, { latencyMs: 150 });
		const started = Date.now();
		const res = await h.call('GET', `${API}/paymentmethod`);
		expect(res.status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
	});

	it('hangs until the request is aborted', async () => {
		await h.call('PUT', `${CONTROL}/faults/acceptancelanguage`, { hang: true });
		const controller = new AbortController();
		const pending = h.sandbox.handle(
			new Request(`${ORIGIN}${API}/acceptancelanguage`, { signal: controller.signal })
		);
		let settled = false;
		void pending.then(() => (settled = true));
		await new Promise((r) => setTimeout(r, 100));
		expect(settled).toBe(false);
		controller.abort();
		const res = await pending;
		expect(res.status).toBe(504);
	});

	it('DELETE /faults clears them all; bad fault bodies are 400; unknown operations 404', async () => {
		await h.call('PUT', `${CONTROL}/faults/pdf`, { status: 500 });
		expect((await h.call('DELETE', `${CONTROL}/faults`)).status).toBe(204);
		expect((await h.call('GET', `${API}/pdf/50001`)).status).toBe(200);
		const bad = await h.callJson('PUT', `${CONTROL}/faults/pdf`, {
			status: 99,
			latencyMs: -1,
			hang: 'y'
		});
		expect(bad.status).toBe(400);
		expect(Object.keys(bad.body.ModelState as Obj).sort()).toEqual(['hang', 'latencyMs', 'status']);
		expect((await h.call('PUT', `${CONTROL}/faults/nothing`, { status: 500 })).status).toBe(404);
	});
});

describe('acceptance-language overrides', () => {
	const hostile =
		'<p onclick="alert(1)">Hi</p><script>alert(2)</script><a href="javascript:x()">x</a>';

	it('serves any HTML for a section, turns sections on and off, and restores the default', async () => {
		const before = await h.callJson('GET', `${API}/acceptancelanguage`);
		expect(
			(
				await h.call('PUT', `${CONTROL}/acceptancelanguage/1207/TermsAndConditions`, {
					html: hostile
				})
			).status
		).toBe(204);
		await h.call('PUT', `${CONTROL}/acceptancelanguage/1207/SeasonalAddendum`, { presented: true });
		await h.call('PUT', `${CONTROL}/acceptancelanguage/1207/NextDayFunding`, {
			presented: false,
			html: null
		});
		const after = await h.callJson('GET', `${API}/acceptancelanguage`);
		expect(after.body.TermsAndConditions_Text).toBe(hostile);
		expect(after.body.Accept_TermsAndConditions_Prod).toBe(true);
		expect(after.body.Accept_SeasonalAddendum_Prod).toBe(true);
		expect(after.body.SeasonalAddendum_Text).toContain('Seasonal Merchant Addendum');
		expect(after.body.Accept_NextDayFunding_Prod).toBe(false);
		expect(after.body.NextDayFunding_Text).toBeNull();
		// Other offices are untouched.
		const other = await h.callJson('GET', '/sandbox/api/office/1300/acceptancelanguage');
		expect(other.body.TermsAndConditions_Text).toBe(before.body.TermsAndConditions_Text);

		expect((await h.call('DELETE', `${CONTROL}/acceptancelanguage/1207`)).status).toBe(204);
		expect((await h.callJson('GET', `${API}/acceptancelanguage`)).body).toEqual(before.body);
	});

	it('400 for an unknown section or bad values', async () => {
		const res = await h.callJson('PUT', `${CONTROL}/acceptancelanguage/1207/Nope`, {
			html: 5,
			presented: 'yes'
		});
		expect(res.status).toBe(400);
		expect(Object.keys(res.body.ModelState as Obj).sort()).toEqual([
			'html',
			'presented',
			'section'
		]);
	});
});

describe('settings, answers, requests, reset', () => {
	it('PUT /settings validates and reports the settings', async () => {
		expect((await h.callJson('GET', `${CONTROL}/settings`)).body).toEqual({
			timeLimitSeconds: 120
		});
		expect((await h.callJson('PUT', `${CONTROL}/settings`, { timeLimitSeconds: 5 })).body).toEqual({
			timeLimitSeconds: 5
		});
		expect((await h.call('PUT', `${CONTROL}/settings`, { timeLimitSeconds: 0 })).status).toBe(400);
	});

	it('GET /answers/{id} gives the right answers; unknown set 404', async () => {
		const set = await h.callJson('GET', `${API}/questionset/50001`);
		const res = await h.callJson('GET', `${CONTROL}/answers/${String(set.body.QuestionSetID)}`);
		expect(res.body).toEqual({
			ApplicationID: 50001,
			QuestionSetID: set.body.QuestionSetID,
			Answers: [1, 2, 3, 4, 5].map((QuestionID) => ({ QuestionID, ChoiceID: expect.any(Number) }))
		});
		expect((await h.call('GET', `${CONTROL}/answers/nope`)).status).toBe(404);
	});

	it('GET /answers/latest/{applicationId} answers for the newest set of that application', async () => {
		expect((await h.call('GET', `${CONTROL}/answers/latest/50002`)).status).toBe(404);
		await h.callJson('GET', `${API}/questionset/50002`);
		h.clock.now = new Date(h.clock.now.getTime() + 1000);
		const newest = await h.callJson('GET', `${API}/questionset/50002`);
		const res = await h.callJson('GET', `${CONTROL}/answers/latest/50002`);
		expect(res.body).toMatchObject({
			ApplicationID: 50002,
			QuestionSetID: newest.body.QuestionSetID
		});
		expect((await h.call('GET', `${CONTROL}/answers/latest/abc`)).status).toBe(400);
	});

	it('GET /requests logs method, path, status and time, filtered by path', async () => {
		await h.call('PUT', `${CONTROL}/faults/paymentmethod`, { status: 503 });
		await h.call('GET', `${API}/paymentmethod`);
		await h.call('GET', `${API}/paymentmethod`);
		await h.call('GET', `${API}/availableequipment`);
		const res = await h.callJson<Obj[]>('GET', `${CONTROL}/requests?path=${API}/paymentmethod`);
		expect(res.body).toEqual([
			expect.objectContaining({
				method: 'GET',
				path: '/api/office/1207/paymentmethod',
				status: 503
			}),
			expect.objectContaining({
				method: 'GET',
				path: '/api/office/1207/paymentmethod',
				status: 503
			})
		]);
		expect(res.body[0]).toHaveProperty('at', expect.any(String));
		const all = await h.callJson<Obj[]>('GET', `${CONTROL}/requests`);
		expect(all.body).toHaveLength(3);
	});

	it('answers a NUL or a lone surrogate, which PostgreSQL’s text can’t hold, with a 400', async () => {
		for (const [method, path, body] of [
			['GET', `${CONTROL}/requests?method=%00`, undefined],
			['GET', `${CONTROL}/requests?path=a%00b`, undefined],
			['GET', `${API}/paymentmethod?x=%00`, undefined],
			['PUT', `${CONTROL}/faults/paymentmethod`, { status: 503, body: 'a\u0000' }],
			['PUT', `${CONTROL}/acceptancelanguage/9999/PaymentReceipt`, { html: '\ud800' }],
			['POST', `${API}/answerset/50001`, { ApplicationID: 50001, ['a\u0000']: 1 }]
		] as const) {
			const res = await h.callJson(method, path, body);
			expect(res.status, path).toBe(400);
			expect(JSON.stringify(res.body), path).toMatch(/NUL/);
		}
		// Nothing was changed: no fault is played.
		expect((await h.call('GET', `${API}/paymentmethod`)).status).toBe(200);
	});

	it('names a field of the wrong type in its own words', async () => {
		const res = await h.callJson('POST', `${API}/answerset/50001`, {
			ApplicationID: 'x',
			Answers: 'y'
		});
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({
			ModelState: {
				ApplicationID: ['The value for ApplicationID is not valid: it must be a number.'],
				Answers: ['The value for Answers is not valid: it must be an array.']
			}
		});
	});

	it('POST /reset wipes everything and reseeds', async () => {
		await h.call('PUT', `${CONTROL}/faults/pdf`, { status: 500 });
		await h.call('PUT', `${CONTROL}/settings`, { timeLimitSeconds: 5 });
		expect((await h.call('POST', `${CONTROL}/reset`)).status).toBe(204);
		expect((await h.call('GET', `${API}/pdf/50001`)).status).toBe(200);
		expect((await h.callJson('GET', `${CONTROL}/settings`)).body).toEqual({
			timeLimitSeconds: 120
		});
		expect((await h.callJson<Obj[]>('GET', `${API}/application/`)).body).toHaveLength(6);
	});

	it('seed() is idempotent', async () => {
		await h.sandbox.seed();
		await h.sandbox.seed();
		expect((await h.callJson<Obj[]>('GET', `${API}/application/`)).body).toHaveLength(6);
	});

	it('405 for a wrong method on a control resource', async () => {
		const res = await h.call('GET', `${CONTROL}/reset`);
		expect(res.status).toBe(405);
		expect(res.headers.get('allow')).toBe('POST');
	});
});
