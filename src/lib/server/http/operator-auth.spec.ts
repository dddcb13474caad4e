import type { RequestEvent } from '@sveltejs/kit';
import { afterAll, afterEach, beforeEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '$lib/server/app';
import { openMemoryDatabase, type Database } from '$lib/server/db';
import { testContext } from '$lib/server/testing/app';
import { midWindow } from '$lib/server/testing/clock';
import { TEST_DATABASE_URL } from '$lib/server/testing/postgres';
import { twoInstancePools } from '$lib/server/testing/two-pools';
import { authorizeOperator } from './operator-auth';

const MAX = 3;
const env = { RATE_LIMIT_OPERATOR_AUTH: String(MAX) };

// Wrong keys are counted in a fixed window: the tests keep clear of its edge.
beforeEach(() => midWindow(600));
afterEach(() => {
	vi.useRealTimers();
});

function call(ctx: AppContext, ip: string, key: string | null) {
	const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
	const event = {
		request: new Request('http://portal.test/api/v1/offices/1/applications/2/signing-links', {
			method: 'POST',
			headers
		}),
		getClientAddress: () => ip
	} as unknown as RequestEvent;
	return authorizeOperator(ctx, event);
}

describe('the operator key', () => {
	let database: Database;
	let ctx: AppContext;
	beforeAll(async () => {
		database = await openMemoryDatabase();
		ctx = testContext(database, 'http://127.0.0.1:9/sandbox', env);
	});
	afterAll(() => database.close());

	it('lets the right key through', async () => {
		expect(await call(ctx, '192.0.2.1', ctx.operatorApiKey!)).toBeNull();
	});

	it('throttles an address after too many wrong keys, with Retry-After, right key or not', async () => {
		const ip = '192.0.2.2';
		for (let i = 0; i < MAX; i++) {
			const res = await call(ctx, ip, `wrong-key-${i}`);
			expect(res?.status).toBe(401);
			expect(res?.headers.get('www-authenticate')).toBe('Bearer');
		}
		for (const key of ['wrong-again', ctx.operatorApiKey!, null]) {
			const res = await call(ctx, ip, key);
			expect(res?.status).toBe(429);
			const wait = Number(res?.headers.get('retry-after'));
			expect(wait).toBeGreaterThan(0);
			expect(wait).toBeLessThanOrEqual(600);
			// The wait in words, as Retry-After gives it (in whole minutes from one minute up).
			const words =
				wait >= 60
					? `${Math.ceil(wait / 60)} minute${Math.ceil(wait / 60) === 1 ? '' : 's'}`
					: `${wait} second${wait === 1 ? '' : 's'}`;
			expect(await res?.json()).toEqual({
				message: `Too many requests with a wrong operator API key came from this address. Try again in ${words}.`
			});
		}
		// Another address is not held back.
		expect(await call(ctx, '192.0.2.3', ctx.operatorApiKey!)).toBeNull();
	});

	it('judges no more keys than the limit when many are sent at once: the right one among them is refused too', async () => {
		const ip = '192.0.2.4';
		const wrong = Array.from({ length: 3 * MAX }, (_, i) => call(ctx, ip, `guess-${i}`));
		const answers = await Promise.all([...wrong, call(ctx, ip, ctx.operatorApiKey!)]);
		expect(answers.filter((r) => r?.status === 401)).toHaveLength(MAX);
		expect(answers.at(-1)?.status).toBe(429);
	});

	it('lets a burst of the operator’s own calls through, however many come at once', async () => {
		const ip = '192.0.2.6';
		const answers = await Promise.all(
			Array.from({ length: 3 * MAX }, () => call(ctx, ip, ctx.operatorApiKey!))
		);
		expect(answers).toEqual(Array(3 * MAX).fill(null));
	});

	it('counts an IPv6 network by its /64, not address by address', async () => {
		for (let i = 1; i <= MAX; i++) {
			expect((await call(ctx, `2001:db8:7:7::${i}`, `wrong-${i}`))?.status).toBe(401);
		}
		expect((await call(ctx, '2001:db8:7:7:ffff::1', 'wrong-again'))?.status).toBe(429);
		expect(await call(ctx, '2001:db8:7:8::1', ctx.operatorApiKey!)).toBeNull();
	});

	it('does not count the right key against the address', async () => {
		const ip = '192.0.2.5';
		for (let i = 0; i < 2 * MAX; i++) expect(await call(ctx, ip, ctx.operatorApiKey!)).toBeNull();
		for (let i = 0; i < MAX; i++) expect((await call(ctx, ip, `wrong-${i}`))?.status).toBe(401);
		expect((await call(ctx, ip, 'wrong-again'))?.status).toBe(429);
	});
});

describe.runIf(TEST_DATABASE_URL)('the operator key on a PostgreSQL server', () => {
	const pools = twoInstancePools();

	it('counts wrong keys across instances, even sent at once', async () => {
		const [a, b] = pools.map((p) => testContext(p, 'http://127.0.0.1:9/sandbox', env));
		const answers = await Promise.all(
			Array.from({ length: 12 }, (_, i) => call(i % 2 ? a! : b!, '192.0.2.9', `wrong-${i}`))
		);
		expect(answers.filter((r) => r?.status === 401)).toHaveLength(MAX);
		expect(answers.filter((r) => r?.status === 429)).toHaveLength(12 - MAX);
		expect((await call(a!, '192.0.2.9', a!.operatorApiKey!))?.status).toBe(429);
	});
});
