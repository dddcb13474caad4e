import { describe, expect, it } from 'vitest';
import { schema } from '$lib/server/db';
import { TEST_DATABASE_URL } from '$lib/server/testing/postgres';
import { twoInstancePools } from '$lib/server/testing/two-pools';
import { createLink } from './links';

const meta = { ip: '203.0.113.7', userAgent: 'test' };

describe.runIf(TEST_DATABASE_URL)('a guarded new link on a PostgreSQL server', () => {
	// Two instances, as two tabs' posts may reach two.
	const pools = twoInstancePools();

	it('two pages showing the same link, posting at once: one new link, the other refused', async () => {
		const input = {
			officeId: 1207,
			applicationId: 9,
			email: null,
			createdBy: 'test',
			ttlHours: 1,
			meta
		};
		for (let round = 0; round < 5; round++) {
			const { link } = await createLink(pools[0]!.db, input);
			const made = await Promise.all(
				pools.flatMap((p) => [1, 2].map(() => createLink(p.db, { ...input, replaces: link.id })))
			);
			expect(made.filter(Boolean)).toHaveLength(1);
		}
		const links = await pools[0]!.db.select().from(schema.signingLinks);
		// Each round's first link and the one new link of its four posts.
		expect(links).toHaveLength(10);
		expect(links.filter((l) => !l.revokedAt)).toHaveLength(1);
	});
});
