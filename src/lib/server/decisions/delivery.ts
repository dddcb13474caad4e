import { eq } from 'drizzle-orm';
import type { AppContext } from '$lib/server/app';
import { appendAudit } from '$lib/server/audit/audit';
import { decrypt } from '$lib/server/crypto/secretbox';
import type { Tx } from '$lib/server/db';
import { decisions, signingSessions } from '$lib/server/db/schema';
import { logError } from '$lib/server/log/log';
import { notifyRep } from '$lib/server/mail/notes';
import { OnboardingError, type MerchantDecisionRequest } from '$lib/server/onboarding';
import { maskedSsn, plain } from '$lib/server/signing/ssn';
import { claimDecision, type Decision } from './decisions';

/**
 * The fields the service's refusal names (its ModelState keys, such as `IPAddress`), which tell
 * the operator what to mend; never their messages, which can quote what was sent.
 */
function refusedFields(err: unknown): string {
	if (!(err instanceof OnboardingError)) return '';
	const fields = Object.keys(err.fieldErrors).filter((f) => /^[\w.[\]]{1,64}$/.test(f));
	return fields.length ? ` (fields: ${fields.slice(0, 10).join(', ')})` : '';
}

export type DeliveryResult = 'delivered' | 'retry' | 'rejected' | 'busy';

/**
 * The service's message as it is kept for the rep (and in the trail and the certificate): what
 * looks like an SSN however it is written (`123.45.6789` as well as `123-45-6789`), and any long
 * number, is not ours to keep, and is masked before the text is cut to length, so that no number
 * is cut short of what the masks recognize.
 */
export function keptMessage(text: string): string {
	// Read as the SSN rules read it (NFKC, no invisible characters) whether or not one is there,
	// so that a long number in fullwidth digits or split by zero-width spaces is a number below.
	return maskedSsn(plain(text), '[number]')
		.replace(/\d[\d\s-]{7,}\d/g, '[number]')
		.slice(0, 500);
}

/** Longer than one upstream call with its timeout: a lease outlives the attempt it guards. */
const leaseMs = (ctx: AppContext) => ctx.config.ONBOARDING_TIMEOUT_MS * 2 + 5_000;

export function backoffMs(ctx: AppContext, attempts: number): number {
	const base = ctx.config.DELIVERY_INTERVAL_SECONDS * 1000;
	return Math.min(base * 2 ** Math.max(0, attempts - 1), 15 * 60_000);
}

function requestBody(d: Decision, ssn: string): MerchantDecisionRequest {
	const b = d.body as Omit<MerchantDecisionRequest, 'MerchantSSN'>;
	// The document's field order, with the SSN in its place.
	return {
		IPAddress: b.IPAddress,
		IsAccepted: b.IsAccepted,
		ApplicationID: b.ApplicationID,
		MerchantSSN: ssn,
		MerchantFirstName: b.MerchantFirstName,
		MerchantLastName: b.MerchantLastName,
		MerchantEmail: b.MerchantEmail,
		MerchantIPAddress: b.MerchantIPAddress,
		IsIndividualGuarantyAccepted: b.IsIndividualGuarantyAccepted,
		AcceptanceLanguage: b.AcceptanceLanguage,
		NotificationEmail: b.NotificationEmail
	};
}

/**
 * Posts one recorded decision. Succeeds once: a 409 ("already recorded") counts as delivered, so a
 * delivery whose answer was lost is not a failure. The SSN is wiped as soon as it is no longer
 * needed, delivered or refused for good.
 */
export async function deliverDecision(
	ctx: AppContext,
	id: string,
	now = new Date()
): Promise<DeliveryResult> {
	const d = await claimDecision(ctx.db, id, leaseMs(ctx), now);
	if (!d) return 'busy';
	const audit = (type: string, data: Record<string, unknown>, tx: Tx = ctx.db) =>
		appendAudit(tx, {
			officeId: d.officeId,
			applicationId: d.applicationId,
			type,
			sessionId: d.sessionId,
			data: { decisionId: d.id, attempt: d.attempts + 1, ...data }
		});
	const finish = (set: Partial<Decision>, tx: Tx = ctx.db) =>
		tx
			.update(decisions)
			.set({ ...set, attempts: d.attempts + 1, lockedUntil: null })
			.where(eq(decisions.id, d.id));
	/** Refused for good: the row, its event and the rep's note commit together. */
	const reject = (set: Partial<Decision>, status: number | null): Promise<'rejected'> =>
		ctx.db.transaction(async (tx) => {
			await finish({ ...set, status: 'rejected', ssnEnc: null }, tx);
			await audit('decision.rejected', { status }, tx);
			const [session] = await tx
				.select({ business: signingSessions.businessName, repNo: signingSessions.repNo })
				.from(signingSessions)
				.where(eq(signingSessions.id, d.sessionId));
			await notifyRep(tx, {
				officeId: d.officeId,
				applicationId: d.applicationId,
				business: session?.business ?? `Application ${d.applicationId}`,
				repNo: session?.repNo,
				kind: 'undelivered',
				status
			});
			return 'rejected' as const;
		});

	/** The application, for the log: ids only. */
	const which = `application ${d.applicationId} (office ${d.officeId}), attempt ${d.attempts + 1}`;

	if (!d.ssnEnc) {
		console.error(`[decision] ${which}: not sent, no SSN on record; its rep is told`);
		return reject({ lastError: 'no SSN on record' }, null);
	}
	try {
		const result = await ctx.onboarding.postMerchantDecision(
			d.officeId,
			d.applicationId,
			requestBody(d, decrypt(ctx.encryptionKey, d.ssnEnc))
		);
		const merchantDecisionId =
			result.kind === 'decision' ? result.decision.MerchantDecisionID : null;
		const responseMessage = result.kind === 'message' ? keptMessage(result.message) : null;
		await finish({
			status: 'delivered',
			deliveredAt: new Date(),
			ssnEnc: null,
			merchantDecisionId,
			responseMessage,
			lastStatus: 200,
			lastError: null
		});
		await audit('decision.delivered', { merchantDecisionId, message: responseMessage });
		// After a failure was logged, its end is too.
		if (d.attempts > 0) console.info(`[decision] ${which}: delivered`);
		return 'delivered';
	} catch (err) {
		const status = err instanceof OnboardingError ? err.status : 0;
		const reason = err instanceof OnboardingError ? err.message : 'unexpected error';
		if (status === 409) {
			await finish({
				status: 'delivered',
				deliveredAt: new Date(),
				ssnEnc: null,
				lastStatus: 409,
				responseMessage: 'already recorded by the service',
				lastError: null
			});
			await audit('decision.delivered', { alreadyRecorded: true });
			return 'delivered';
		}
		const transient = status === 0 || status === 408 || status === 429 || status >= 500;
		if (transient) {
			const next = new Date(Date.now() + backoffMs(ctx, d.attempts + 1));
			await finish({
				lastStatus: status || null,
				lastError: reason.slice(0, 500),
				nextAttemptAt: next
			});
			await audit('decision.delivery_failed', {
				status: status || null,
				retryAt: next.toISOString()
			});
			logError('decision', `${which}: not delivered, next try at ${next.toISOString()}`, err);
			return 'retry';
		}
		logError(
			'decision',
			`${which}: refused for good by the service${refusedFields(err)}; its rep is told`,
			err
		);
		return reject({ lastStatus: status, lastError: reason.slice(0, 500) }, status);
	}
}
