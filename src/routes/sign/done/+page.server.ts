import { app } from '$lib/server/app';
import { decisionById } from '$lib/server/decisions/decisions';
import { declineReceiptTo } from '$lib/server/decisions/receipt';
import { declineById } from '$lib/server/signing/decline';
import { mailEnabled } from '$lib/server/mail/mode';
import { requireStep } from '$lib/server/signing/guard';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	const session = requireStep(event, 'done');
	const db = app().db;
	// How long the page (and its copies) can still be opened once the merchant leaves it.
	const idleMinutes = app().config.SESSION_IDLE_MINUTES;
	if (!session.decisionId) {
		// Declined before identity: the portal's own record, nothing for the service.
		const [declined, to] = await Promise.all([
			declineById(db, session.declineId!),
			declineReceiptTo(db, session)
		]);
		return {
			kind: 'declined-early' as const,
			idleMinutes,
			accepted: false,
			at: (declined?.createdAt ?? new Date()).toISOString(),
			status: 'recorded' as const,
			merchantDecisionId: null,
			received: false,
			// The confirmation went where the link had been emailed (decisions/receipt.ts
			// queueEarlyDeclineReceipt), unless mail is off.
			receiptTo: mailEnabled(app()) ? to : null
		};
	}
	const d = await decisionById(db, session.decisionId);
	const email = d?.body.MerchantEmail;
	return {
		kind: 'decision' as const,
		idleMinutes,
		// The portal's reference, which the copies print and /verify takes.
		reference: session.decisionId,
		accepted: d?.isAccepted ?? false,
		at: (d?.createdAt ?? new Date()).toISOString(),
		status: d?.status ?? 'pending',
		merchantDecisionId: d?.merchantDecisionId ?? null,
		received: d?.status === 'delivered' && d.merchantDecisionId === null,
		// Where the receipt went, queued with the decision (decisions/receipt.ts) unless mail is off.
		receiptTo: mailEnabled(app()) && typeof email === 'string' ? email : null
	};
};
