import { expect } from 'vitest';
import { appendAudit } from '$lib/server/audit/audit';
import type { Db } from '$lib/server/db';
import { chainHead } from '$lib/server/evidence/chain-head';
import { createSession, findSession } from './session';

/**
 * For tests, on either database: the session's statement with the chain head (the done step's
 * PDFs) reads the head the documents' own statement reads, and only when asked.
 */
export async function expectChainHeadWithSession(db: Db, applicationId: number) {
	const officeId = 1207;
	const { secret, session } = await createSession(db, {
		channel: 'link',
		linkId: null,
		repId: null,
		officeId,
		applicationId,
		businessName: 'Chain Head Test LLC',
		ownerFirstName: 'Ada',
		ownerLastName: 'Lane',
		ownerEmail: 'ada@example.com',
		ip: null,
		userAgent: null
	});
	const read = () => findSession(db, secret, 30, new Date(), { withChainHead: true });
	expect(await findSession(db, secret, 30)).toEqual({ open: expect.anything() });
	expect(await read()).toMatchObject({ open: { id: session.id }, chainHead: null });
	const heads: (string | null)[] = [];
	for (const type of ['link.opened', 'terms.shown'] as const) {
		const event = await appendAudit(db, {
			officeId,
			applicationId,
			type,
			channel: 'link',
			ip: null,
			userAgent: null,
			rep: null,
			sessionId: session.id,
			data: {}
		});
		const standalone = await chainHead(db, officeId, applicationId);
		expect(standalone).toBe(`${event.seq}:${event.hash}`);
		expect(await read()).toMatchObject({ chainHead: standalone });
		heads.push(standalone);
	}
	expect(heads[0]).not.toBe(heads[1]);
}
