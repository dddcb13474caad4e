import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openMemoryDatabase, schema } from '$lib/server/db';
import { testContext } from '$lib/server/testing/app';
import { health } from './health';

describe('/healthz', () => {
	afterEach(() => vi.restoreAllMocks());

	it('counts decisions in trouble, and answers 503 while the database does not, said once', async () => {
		const database = await openMemoryDatabase();
		const ctx = testContext(database, 'http://127.0.0.1:9/api');
		const now = Date.now();
		const decision = (
			applicationId: number,
			status: 'pending' | 'rejected' | 'delivered',
			attempts: number,
			ageMs = 0
		) => ({
			officeId: 1207,
			applicationId,
			sessionId: randomUUID(),
			isAccepted: true,
			body: {},
			ssnLast4: '6789',
			status,
			attempts,
			createdAt: new Date(now - ageMs)
		});
		await database.db
			.insert(schema.decisions)
			.values([
				decision(1, 'pending', 0),
				decision(2, 'pending', 2),
				decision(3, 'rejected', 1),
				decision(4, 'rejected', 1, 2 * 86_400_000),
				decision(5, 'delivered', 3)
			]);
		expect(await health(ctx)).toEqual({
			status: 200,
			body: expect.objectContaining({ ok: true, decisionsRetrying: 1, decisionsRefused: 1 })
		});

		const lines: string[] = [];
		vi.spyOn(console, 'error').mockImplementation(
			(...a: unknown[]) => void lines.push(a.join(' '))
		);
		await database.close();
		for (let i = 0; i < 3; i++) {
			expect(await health(ctx)).toEqual({
				status: 503,
				body: expect.objectContaining({ ok: false, problem: 'the database is not answering' })
			});
		}
		expect(lines).toHaveLength(1);
		expect(lines[0]).toMatch(/^\[database\] the health check failed: /);
	});
});
