import { and, eq } from 'drizzle-orm';
import type { Tx } from '../db';
import { sandboxDecisions } from '../db/schema';
import { MerchantDecisionRequestSchema } from '../onboarding/schemas';
import { getApplication } from './application/store';
import { addError, invalid, json, message, readJson } from './http';
import { isVerified } from './identity/store';
import { check } from './modelstate';
import type { Handler } from './router';
import { ssnDigest } from './ssn';
import { nextId } from './store';

type Obj = Record<string, unknown>;

/**
 * Stores a decision as received, except MerchantSSN, which is replaced by its HMAC under `ssnKey`
 * and its last four digits (see ssn.ts). Returns the new MerchantDecisionID, or null when the application already has a
 * decision (the unique index decides, so two instances cannot both record one).
 */
export async function recordDecision(
	tx: Tx,
	officeId: number,
	applicationId: number,
	received: Obj,
	at: Date,
	ssnKey: Buffer
): Promise<number | null> {
	const { MerchantSSN: ssn, ...body } = received;
	const digest = ssnDigest(typeof ssn === 'string' ? ssn : '', ssnKey);
	const id = await nextId(tx, 'decision');
	const rows = await tx
		.insert(sandboxDecisions)
		.values({
			id,
			officeId,
			applicationId,
			isAccepted: body.IsAccepted === true,
			body,
			ssnHmac: digest.hmac,
			ssnLast4: digest.last4,
			receivedAt: at
		})
		.onConflictDoNothing()
		.returning({ id: sandboxDecisions.id });
	return rows[0]?.id ?? null;
}

export async function findDecision(tx: Tx, applicationId: number, officeId?: number) {
	const [row] = await tx
		.select()
		.from(sandboxDecisions)
		.where(
			officeId === undefined
				? eq(sandboxDecisions.applicationId, applicationId)
				: and(
						eq(sandboxDecisions.applicationId, applicationId),
						eq(sandboxDecisions.officeId, officeId)
					)
		);
	return row;
}

/** What the control API shows of a received decision: as received, SSN replaced by its HMAC. */
export function describeDecision(row: typeof sandboxDecisions.$inferSelect): Obj {
	return {
		...row.body,
		ssnHmac: row.ssnHmac,
		ssnLast4: row.ssnLast4,
		receivedAt: row.receivedAt.toISOString(),
		MerchantDecisionID: row.id
	};
}

/** POST merchantdecision/{applicationid}. */
export const merchantDecision: Handler = async ({
	db,
	request,
	officeId,
	applicationId,
	now,
	ssnKey
}) => {
	const body = await readJson(request, 'decision');
	if (!body.ok) return body.response;
	const { modelState } = check(MerchantDecisionRequestSchema, body.value);
	const raw = body.value as Obj;
	if (Number.isInteger(raw?.ApplicationID) && raw.ApplicationID !== applicationId) {
		addError(modelState, 'ApplicationID', 'ApplicationID must be the application in the path.');
	}
	if (typeof raw?.MerchantSSN === 'string' && /^\d+$/.test(raw.MerchantSSN)) {
		if (raw.MerchantSSN.length !== 9)
			addError(modelState, 'MerchantSSN', 'MerchantSSN must be nine digits.');
	}
	if (Object.keys(modelState).length > 0) return invalid(modelState);

	const app = await getApplication(db, officeId, applicationId);
	if (!app)
		return message(404, `Application ${applicationId} was not found in office ${officeId}.`);
	if (await findDecision(db, applicationId, officeId)) {
		return message(409, 'A decision is already recorded for this application.');
	}
	if (!(await isVerified(db, officeId, applicationId))) {
		return message(403, "The signer's identity has not been verified for this application.");
	}
	const id = await recordDecision(db, officeId, applicationId, raw, now, ssnKey);
	if (id === null) return message(409, 'A decision is already recorded for this application.');
	return json({
		IsAccepted: raw.IsAccepted,
		ApplicationID: raw.ApplicationID,
		// The service echoes the SSN (the document lists it in both directions); it is never stored.
		MerchantSSN: raw.MerchantSSN,
		MerchantFirstName: raw.MerchantFirstName,
		MerchantLastName: raw.MerchantLastName,
		MerchantEmail: raw.MerchantEmail,
		MerchantIPAddress: raw.MerchantIPAddress,
		IsIndividualGuarantyAccepted: raw.IsIndividualGuarantyAccepted,
		AcceptanceLanguage: null,
		NotificationEmail: null,
		MerchantDecisionID: id,
		DecisionComment: null
	});
};
