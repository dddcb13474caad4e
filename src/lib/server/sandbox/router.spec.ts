import { describe, expect, it } from 'vitest';
import { API, ORIGIN, useSandbox } from './spec-helpers';

describe('routing', () => {
	const h = useSandbox();

	it('405 with Allow for a GET where the document says POST, and any wrong method', async () => {
		for (const [method, path, allow] of [
			['GET', `${API}/answerset/50001`, 'POST'],
			['GET', `${API}/merchantdecision/50001`, 'POST'],
			['POST', `${API}/acceptancelanguage`, 'GET'],
			['DELETE', `${API}/application`, 'POST, GET'],
			['PUT', `${API}/pdf/50001`, 'GET']
		] as const) {
			const res = await h.call(method, path);
			expect(res.status, `${method} ${path}`).toBe(405);
			expect(res.headers.get('allow')).toBe(allow);
			expect((await res.json()).Message).toEqual(expect.any(String));
		}
	});

	it('400 naming the parameter for non-integer ids in the path', async () => {
		const res = await h.callJson('GET', '/sandbox/api/office/abc/questionset/5x');
		expect(res.status).toBe(400);
		expect(res.body).toEqual({
			Message: 'The request is invalid.',
			ModelState: { officeid: [expect.any(String)], applicationid: [expect.any(String)] }
		});
		expect((await h.call('GET', `${API}/pdf/-1`)).status).toBe(400);
		expect((await h.call('GET', `${API}/pdf/1.5`)).status).toBe(400);
		// The largest int32 is an id like any other; one more is not.
		expect((await h.call('GET', `${API}/pdf/2147483647`)).status).toBe(404);
		expect((await h.call('GET', `${API}/pdf/2147483648`)).status).toBe(400);
	});

	it('404 for unknown paths and outside the base path', async () => {
		expect((await h.call('GET', `${API}/nothing`)).status).toBe(404);
		expect((await h.call('GET', `${API}/questionset`)).status).toBe(404);
		expect((await h.call('GET', '/sandbox/')).status).toBe(404);
		expect((await h.call('GET', '/sandboxed/api/office/1207/paymentmethod')).status).toBe(404);
		expect((await h.call('GET', '/sandbox/_sandbox/nothing')).status).toBe(404);
	});

	it('answers a body it cannot read in words of its own, never a 500', async () => {
		// How kit's request ends a body over BODY_SIZE_LIMIT, and one whose client went away.
		const body = (err: Error) =>
			new Request(`${ORIGIN}${API}/application`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: new ReadableStream({ pull: (c) => c.error(err) }),
				duplex: 'half'
			} as RequestInit);
		const large = await h.sandbox.handle(
			body(Object.assign(new Error('Content-length of 2000000 exceeds limit'), { status: 413 }))
		);
		expect(large.status).toBe(413);
		expect(await large.json()).toEqual({ Message: 'The request body is too large.' });
		const cut = await h.sandbox.handle(
			body(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))
		);
		expect(cut.status).toBe(400);
		expect(await cut.json()).toEqual({ Message: 'The request body could not be read.' });
	});

	it('matches segments case-insensitively, as ASP.NET routing does', async () => {
		expect((await h.call('GET', '/sandbox/API/Office/1207/PaymentMethod')).status).toBe(200);
	});
});

describe('authentication', () => {
	const h = useSandbox({ authHeader: 'X-Api-Key', authValue: 'sekret' });

	it('401 without the right header, 200 with it; the control API needs none', async () => {
		const none = await h.callJson('GET', `${API}/paymentmethod`);
		expect(none.status).toBe(401);
		expect(none.body).toEqual({ Message: 'Authorization has been denied for this request.' });
		const wrong = await h.call('GET', `${API}/paymentmethod`, undefined, { 'x-api-key': 'nope' });
		expect(wrong.status).toBe(401);
		const right = await h.call('GET', `${API}/paymentmethod`, undefined, { 'X-Api-Key': 'sekret' });
		expect(right.status).toBe(200);
		const control = await h.sandbox.handle(new Request(`${ORIGIN}/sandbox/_sandbox/settings`));
		expect(control.status).toBe(200);
	});

	it('defaults to the Authorization header', async () => {
		const { createSandbox } = await import('.');
		const sandbox = createSandbox({ db: h.database.db, authValue: 'Bearer t' });
		const res = await sandbox.handle(
			new Request(`${ORIGIN}${API}/paymentmethod`, { headers: { authorization: 'Bearer t' } })
		);
		expect(res.status).toBe(200);
	});
});
