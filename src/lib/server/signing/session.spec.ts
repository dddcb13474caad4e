import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openMemoryDatabase } from '$lib/server/db';
import { signingSessions } from '$lib/server/db/schema';
import {
	createSession,
	currentStep,
	resumeSession,
	touchInterval,
	type SigningSession
} from './session';

const base = {
	decisionId: null,
	identityPassedAt: null,
	consentAt: null
} as unknown as SigningSession;
const at = new Date();

describe('step order', () => {
	it('follows what is recorded, in order', () => {
		expect(currentStep(base)).toBe('terms');
		expect(currentStep({ ...base, consentAt: at })).toBe('identity');
		expect(currentStep({ ...base, consentAt: at, identityPassedAt: at })).toBe('sign');
		expect(currentStep({ ...base, consentAt: at, identityPassedAt: at, decisionId: 'd' })).toBe(
			'done'
		);
	});
});

describe('idle time', () => {
	it('is recorded to the minute (a tenth of a short limit), not on every request', async () => {
		expect(touchInterval(30)).toBe(60_000);
		expect(touchInterval(1)).toBe(6_000);
		const database = await openMemoryDatabase();
		try {
			const t0 = new Date('2026-05-01T12:00:00Z');
			const later = (ms: number) => new Date(t0.getTime() + ms);
			const { secret, session } = await createSession(
				database.db,
				{
					channel: 'link',
					linkId: null,
					repId: null,
					officeId: 1207,
					applicationId: 9,
					businessName: 'B',
					ownerFirstName: '',
					ownerLastName: '',
					ownerEmail: '',
					ip: null,
					userAgent: null
				},
				t0
			);
			const seen = async () =>
				(
					await database.db
						.select({ at: signingSessions.lastSeenAt })
						.from(signingSessions)
						.where(eq(signingSessions.id, session.id))
				)[0]!.at.getTime();

			expect(await resumeSession(database.db, secret, 30, later(59_000))).toBeDefined();
			expect(await seen()).toBe(t0.getTime());
			expect(await resumeSession(database.db, secret, 30, later(61_000))).toBeDefined();
			expect(await seen()).toBe(later(61_000).getTime());
			// Idle for the whole limit since the last recorded touch: the session has ended.
			expect(await resumeSession(database.db, secret, 30, later(61_000 + 30 * 60_000 + 1))).toBe(
				undefined
			);
		} finally {
			await database.close();
		}
	});
});
