import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit, verifyAuditChain } from '$lib/server/audit/audit';
import { declines, mailOutbox, signingLinks, signingSessions } from '$lib/server/db/schema';
import { createLink } from '$lib/server/links/links';
import { startTestApp } from '$lib/server/testing/app';
import { declineBeforeIdentity } from './decline';
import { currentStep } from './session';

const meta = { ip: '127.0.0.1', userAgent: 'vitest' };

describe('a decline before identity', () => {
	let t: Awaited<ReturnType<typeof startTestApp>>;
	beforeAll(async () => {
		t = await startTestApp();
	});
	afterAll(() => t.close());

	it('is kept by the portal: row, chained event, link used up, session done, note to the rep', async () => {
		const { link } = await createLink(t.ctx.db, {
			officeId: 1207,
			applicationId: 50001,
			email: null,
			createdBy: 'vitest',
			ttlHours: 24,
			meta
		});
		const s = await t.session(50001, 1207, link.id);
		const at = new Date('2026-03-02T15:04:05Z');
		const row = await declineBeforeIdentity(
			t.ctx,
			t.ctx.db,
			s,
			{ stage: 'terms', reason: 'Fees too high, call me at 217-555-0143' },
			meta,
			at
		);

		const [kept] = await t.ctx.db.select().from(declines).where(eq(declines.id, row.id));
		expect(kept).toMatchObject({
			stage: 'terms',
			reason: 'Fees too high, call me at 217-555-0143',
			sessionId: s.id,
			linkId: link.id,
			createdAt: at
		});
		const [session] = await t.ctx.db
			.select()
			.from(signingSessions)
			.where(eq(signingSessions.id, s.id));
		expect(session!.declineId).toBe(row.id);
		expect(currentStep(session!)).toBe('done');
		const [used] = await t.ctx.db.select().from(signingLinks).where(eq(signingLinks.id, link.id));
		expect(used!.usedAt).toEqual(at);

		const trail = await listAudit(t.ctx.db, 1207, 50001);
		const event = trail.find((e) => e.type === 'decline.recorded')!;
		expect(event).toMatchObject({ sessionId: s.id, at });
		expect(event.data).toEqual({
			declineId: row.id,
			stage: 'terms',
			linkId: link.id,
			reason: 'Fees too high, call me at 217-555-0143',
			identityPassed: false
		});
		expect((await verifyAuditChain(t.ctx.db, 1207, 50001)).ok).toBe(true);

		const notes = await t.ctx.db
			.select()
			.from(mailOutbox)
			.where(and(eq(mailOutbox.applicationId, 50001), eq(mailOutbox.kind, 'note.declined')));
		expect(notes).toHaveLength(1);
		expect(notes[0]!.data).toMatchObject({
			kind: 'declined',
			signer: 'Dana Whitfield',
			reason: 'Fees too high, call me at 217-555-0143'
		});
	});
});
