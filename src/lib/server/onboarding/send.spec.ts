import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { OnboardingError } from './errors';
import { readJson, send, type SendLogEntry, type TransportOptions } from './send';
import { json, startTestServer, text, type Handler } from './test-server';

const Thing = v.looseObject({ Id: v.number(), Name: v.string() });

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
	await close?.();
	close = undefined;
});

async function serve(handler: Handler, opts: Partial<TransportOptions> = {}) {
	const server = await startTestServer(handler);
	close = server.close;
	const logs: SendLogEntry[] = [];
	const options: TransportOptions = {
		baseUrl: server.baseUrl,
		timeoutMs: 1_000,
		retryDelaysMs: [5, 10],
		log: (e) => logs.push(e),
		...opts
	};
	const call = (method: 'GET' | 'POST' = 'GET', extra: { query?: Record<string, string> } = {}) =>
		send(options, {
			operation: 'getThing',
			method,
			path: '/api/office/{officeid}/thing/{id}',
			params: { officeid: 1207, id: 5 },
			body: method === 'POST' ? { Secret: '123456789' } : undefined,
			read: (res) => readJson(res, Thing, 'getThing'),
			...extra
		});
	return { ...server, call, logs };
}

async function failure(p: Promise<unknown>): Promise<OnboardingError> {
	const err = await p.then(
		() => undefined,
		(e: unknown) => e
	);
	expect(err).toBeInstanceOf(OnboardingError);
	return err as OnboardingError;
}

describe('send: timeouts', () => {
	it('gives up on a server that never answers, as a timeout, without retrying', async () => {
		const s = await serve(() => {}, { timeoutMs: 150 });
		const started = Date.now();
		const err = await failure(s.call());
		expect(err.kind).toBe('timeout');
		expect(err.status).toBe(0);
		expect(err.operation).toBe('getThing');
		expect(Date.now() - started).toBeLessThan(1_000);
		expect(s.seen).toHaveLength(1);
		expect(s.logs).toMatchObject([
			{ status: 0, problem: 'no answer within ONBOARDING_TIMEOUT_MS' }
		]);
	});

	it('bounds the body too: headers sent, body never finished', async () => {
		const s = await serve(
			(_req, res) => {
				res.writeHead(200, { 'Content-Type': 'application/json' });
				res.write('{"Id": 1,');
			},
			{ timeoutMs: 150 }
		);
		const err = await failure(s.call());
		expect(err.kind).toBe('timeout');
	});
});

describe('send: retries', () => {
	it('retries a GET after 503 and returns the later success', async () => {
		const s = await serve((_req, res, n) =>
			n === 1 ? json(res, 503, { Message: 'busy' }) : json(res, 200, { Id: 5, Name: 'five' })
		);
		await expect(s.call()).resolves.toEqual({ Id: 5, Name: 'five' });
		expect(s.seen).toHaveLength(2);
		expect(s.logs.map((l) => l.status)).toEqual([503, 200]);
	});

	it('retries a GET at most twice, on 502, 503 and 504', async () => {
		const statuses = [502, 504, 503];
		const s = await serve((_req, res, n) => json(res, statuses[n - 1] ?? 200, {}));
		const err = await failure(s.call());
		expect(err).toMatchObject({ kind: 'http', status: 503 });
		expect(s.seen).toHaveLength(3);
	});

	it('retries a GET after a dropped connection', async () => {
		const s = await serve((_req, res, n) => {
			if (n === 1) res.socket?.destroy();
			else json(res, 200, { Id: 1, Name: 'one' });
		});
		await expect(s.call()).resolves.toEqual({ Id: 1, Name: 'one' });
		expect(s.seen).toHaveLength(2);
	});

	it.each([500, 400, 404, 409])('does not retry a GET answered %i', async (status) => {
		const s = await serve((_req, res) => json(res, status, { Message: 'no' }));
		const err = await failure(s.call());
		expect(err.status).toBe(status);
		expect(s.seen).toHaveLength(1);
	});

	it('never retries a POST, on 503 or on a dropped connection', async () => {
		const s = await serve((_req, res, n) => {
			if (n === 1) json(res, 503, {});
			else res.socket?.destroy();
		});
		expect((await failure(s.call('POST'))).status).toBe(503);
		expect((await failure(s.call('POST'))).kind).toBe('network');
		expect(s.seen).toHaveLength(2);
	});

	it('reports an unreachable service as a network error with status 0', async () => {
		const s = await serve(() => {});
		await s.close();
		close = undefined;
		const err = await failure(s.call());
		expect(err).toMatchObject({ kind: 'network', status: 0 });
		// Each attempt's line says why nothing came back, with the system's code only.
		expect(s.logs.map((l) => [l.status, l.problem])).toEqual(
			Array(3).fill([0, 'no connection (ECONNREFUSED)'])
		);
	});
});

describe('send: the four error forms', () => {
	const secret = 'Ownr1_SSN 123456789 is invalid';

	it('reads JSON { Message } without repeating it', async () => {
		const s = await serve((_req, res) => json(res, 404, { Message: secret }));
		const err = await failure(s.call());
		expect(err).toMatchObject({ kind: 'http', status: 404, form: 'message', fieldErrors: {} });
		expect(err.message).not.toContain('123456789');
		expect(err.message).toContain('404');
	});

	it('reads JSON { Message, ModelState } into fieldErrors', async () => {
		const s = await serve((_req, res) =>
			json(res, 400, {
				Message: 'The request is invalid.',
				ModelState: {
					'application.OfficeNo': ['The OfficeNo field is required.'],
					'application.Profile.Bank_Date_Open': ['Bad date.', 'Expected MM/DD/YY.']
				}
			})
		);
		const err = await failure(s.call('POST'));
		expect(err).toMatchObject({ kind: 'http', status: 400, form: 'model-state' });
		expect(err.fieldErrors).toEqual({
			'application.OfficeNo': ['The OfficeNo field is required.'],
			'application.Profile.Bank_Date_Open': ['Bad date.', 'Expected MM/DD/YY.']
		});
	});

	it('reads a plain-text body without repeating it', async () => {
		const s = await serve((_req, res) => text(res, 409, secret));
		const err = await failure(s.call('POST'));
		expect(err).toMatchObject({ kind: 'http', status: 409, form: 'text', fieldErrors: {} });
		expect(err.message).not.toContain('123456789');
	});

	it('reads an empty body', async () => {
		const s = await serve((_req, res) => {
			res.writeHead(403);
			res.end();
		});
		const err = await failure(s.call());
		expect(err).toMatchObject({ kind: 'http', status: 403, form: 'empty', fieldErrors: {} });
	});
});

describe('send: schema', () => {
	it('names the field path of a response that does not match', async () => {
		const s = await serve((_req, res) => json(res, 200, { Id: '5x', Name: 'five' }));
		const err = await failure(s.call());
		expect(err).toMatchObject({ kind: 'schema', status: 0, fieldPath: 'Id' });
		expect(err.message).toContain('Id');
		expect(err.fieldErrors.Id?.[0]).toMatch(/^expected /);
		// The received value is not quoted anywhere.
		expect(JSON.stringify(err.fieldErrors)).not.toContain('5x');
	});

	it('treats a 200 that is not JSON as a schema failure', async () => {
		const s = await serve((_req, res) => text(res, 200, '<html>maintenance</html>'));
		const err = await failure(s.call());
		expect(err).toMatchObject({ kind: 'schema', fieldPath: '(body)' });
	});
});

describe('send: auth, URL and logging', () => {
	it('sends the configured header and value', async () => {
		const s = await serve((_req, res) => json(res, 200, { Id: 1, Name: 'x' }), {
			authHeader: 'X-Api-Key',
			authValue: 'k-123'
		});
		await s.call();
		expect(s.seen[0]?.headers['x-api-key']).toBe('k-123');
		expect(s.seen[0]?.headers.authorization).toBeUndefined();
	});

	it('defaults to Authorization', async () => {
		const s = await serve((_req, res) => json(res, 200, { Id: 1, Name: 'x' }), {
			authValue: 'Bearer t'
		});
		await s.call();
		expect(s.seen[0]?.headers.authorization).toBe('Bearer t');
	});

	it('sends no auth header when no value is configured', async () => {
		const s = await serve((_req, res) => json(res, 200, { Id: 1, Name: 'x' }), {
			authHeader: 'X-Api-Key'
		});
		await s.call();
		expect(s.seen[0]?.headers['x-api-key']).toBeUndefined();
		expect(s.seen[0]?.headers.authorization).toBeUndefined();
	});

	it('fills the path, encodes the query and logs only method, template, status, duration', async () => {
		const s = await serve((_req, res) => json(res, 200, { Id: 1, Name: 'x' }));
		const options: TransportOptions = {
			baseUrl: `${s.baseUrl}/sandbox/`,
			log: (e) => s.logs.push(e)
		};
		await send(options, {
			operation: 'getThing',
			method: 'POST',
			path: '/api/office/{officeid}/thing',
			params: { officeid: 1207 },
			query: { city: 'St. Louis & Co', zip: '63101' },
			body: { MerchantSSN: '123456789' },
			read: (res) => readJson(res, Thing, 'getThing')
		});
		expect(s.seen[0]?.url).toBe('/sandbox/api/office/1207/thing?city=St.+Louis+%26+Co&zip=63101');
		expect(s.seen[0]?.headers['content-type']).toMatch(/^application\/json/);
		expect(JSON.parse(s.seen[0]?.body ?? '')).toEqual({ MerchantSSN: '123456789' });
		expect(s.logs).toHaveLength(1);
		expect(Object.keys(s.logs[0]!).sort()).toEqual(['durationMs', 'method', 'path', 'status']);
		expect(s.logs[0]).toMatchObject({
			method: 'POST',
			path: '/api/office/{officeid}/thing',
			status: 200
		});
		expect(JSON.stringify(s.logs)).not.toMatch(/123456789|Louis|1207/);
	});

	it('refuses to follow a redirect, so the credential stays with the service', async () => {
		const s = await serve(
			(_req, res) => {
				res.writeHead(302, { Location: 'http://127.0.0.1:9/elsewhere' });
				res.end();
			},
			{ authValue: 'secret' }
		);
		const err = await failure(s.call('POST'));
		expect(err.kind).toBe('network');
	});
});
