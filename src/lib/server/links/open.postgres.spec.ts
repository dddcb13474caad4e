import { isHttpError, type RequestEvent } from '@sveltejs/kit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '$lib/server/app';
import { testContext } from '$lib/server/testing/app';
import { midWindow } from '$lib/server/testing/clock';
import { TEST_DATABASE_URL } from '$lib/server/testing/postgres';
import { twoInstancePools } from '$lib/server/testing/two-pools';
import { createLink } from './links';
import { openLink, openLinkView } from './open';

const OPENS = 7;

describe.runIf(TEST_DATABASE_URL)('opening a signing link on a PostgreSQL server', () => {
	const pools = twoInstancePools();
	let instances: AppContext[] = [];

	beforeAll(async () => {
		midWindow(600);
		instances = pools.map((p) =>
			testContext(p, 'http://127.0.0.1:9/sandbox', { RATE_LIMIT_LINK_OPEN: String(OPENS) })
		);
	});
	afterAll(() => {
		vi.useRealTimers();
	});

	const event = { getClientAddress: () => '198.51.100.9', setHeaders: () => {} };

	/** 200, or the status the opening ended in. */
	async function open(ctx: AppContext, token: string, view: boolean) {
		try {
			const e = event as unknown as RequestEvent;
			await (view ? openLinkView(ctx, e, token) : openLink(ctx, e, token));
			return 200;
		} catch (err) {
			if (!isHttpError(err)) throw err;
			return err.status;
		}
	}

	it('lets exactly the allowed opens of one link through, however they race across two instances', async () => {
		const { token } = await createLink(pools[0]!.db, {
			officeId: 1207,
			applicationId: 50001,
			email: null,
			createdBy: 'test',
			ttlHours: 168,
			meta: { ip: null, userAgent: null }
		});
		// The link page's one statement and Start's two, at once, on both instances.
		const statuses = await Promise.all(
			Array.from({ length: 20 }, (_, i) => open(instances[i % 2]!, token, i % 3 !== 0))
		);
		expect(statuses.filter((s) => s === 200)).toHaveLength(OPENS);
		expect(statuses.filter((s) => s === 429)).toHaveLength(20 - OPENS);
		// A token of the right shape that names no link: no row, so nothing counted but the miss.
		const unknown = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
		expect(await open(instances[1]!, unknown, true)).toBe(404);
	});
});
