import { eq } from 'drizzle-orm';
import type { AppContext } from '$lib/server/app';
import { appendAudit } from '$lib/server/audit/audit';
import type { Tx } from '$lib/server/db';
import { queueEarlyDeclineReceipt } from '$lib/server/decisions/receipt';
import { declines, type Channel, type DeclineStage } from '$lib/server/db/schema';
import type { RequestMeta } from '$lib/server/http/meta';
import { notifyRep } from '$lib/server/mail/notes';
import { earlierPass } from '$lib/server/identity/attempts';
import { sessionEvent } from './event';
import { finishSession, type SigningSession } from './session';
import { fullName } from './application';

export type Decline = typeof declines.$inferSelect;

/**
 * A "no" before identity has passed. The service takes a decision only with the signer's SSN,
 * which the merchant has not given (and need not give to say no), so the portal records it
 * itself: the decline row, the `decline.recorded` event on the application's chain, the link
 * used up, the session finished, the rep's note and the merchant's confirmation — one
 * transaction.
 */
export async function declineBeforeIdentity(
	ctx: AppContext,
	db: Tx,
	session: SigningSession,
	input: { stage: DeclineStage; reason: string | null },
	meta: RequestMeta,
	now = new Date()
): Promise<Decline> {
	return db.transaction(async (tx) => {
		const [row] = await tx
			.insert(declines)
			.values({
				officeId: session.officeId,
				applicationId: session.applicationId,
				sessionId: session.id,
				linkId: session.linkId,
				stage: input.stage,
				reason: input.reason,
				createdAt: now
			})
			.returning();
		await finishSession(tx, session, { declineId: row!.id }, now);
		await appendAudit(tx, {
			...sessionEvent(session, meta),
			type: 'decline.recorded',
			at: now,
			data: {
				declineId: row!.id,
				stage: input.stage,
				linkId: session.linkId,
				reason: input.reason,
				identityPassed: false
			}
		});
		const signer = fullName(session.ownerFirstName, session.ownerLastName);
		await notifyRep(tx, {
			officeId: session.officeId,
			applicationId: session.applicationId,
			business: session.businessName,
			repNo: session.repNo,
			at: now,
			kind: 'declined',
			signer: signer || 'The signer',
			reason: input.reason,
			beforeIdentity: session.channel === 'in_person' ? 'in_person' : 'link'
		});
		// The merchant's confirmation: where their link was emailed, or in person to the owner's
		// address (decisions/receipt.ts declineReceiptTo).
		await queueEarlyDeclineReceipt(ctx, tx, session, input.reason !== null, now);
		return row!;
	});
}

/**
 * Whether identity has passed for this signing already (on this link, an earlier one to the same
 * address, or in person): then a "no" goes to the service as a decision, with the SSN, from the
 * sign step, and declineBeforeIdentity is not the way (its record would say identity had not
 * passed). See earlierPass.
 */
export async function identityCarries(
	db: Tx,
	s: { officeId: number; applicationId: number; linkId: string | null; channel: Channel }
): Promise<boolean> {
	const earlier = await earlierPass(db, s.officeId, s.applicationId, s.linkId, s.channel);
	return earlier.kind === 'carries';
}

/** A no-SSN decline refused because identityCarries: what to do instead. */
export const DECLINE_ON_SIGN_STEP =
	'Your identity is already confirmed, so a decline goes to the onboarding service as your decision, and the service takes a decision only with your Social Security Number. Nothing was recorded: go on to the last step and choose Decline there.';

export async function declineById(db: Tx, id: string): Promise<Decline | undefined> {
	const [row] = await db.select().from(declines).where(eq(declines.id, id));
	return row;
}
