import { app } from '$lib/server/app';
import { decisionById } from '$lib/server/decisions/decisions';
import { requireStep } from '$lib/server/signing/guard';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	const session = requireStep(event, 'done');
	const d = await decisionById(app().db, session.decisionId!);
	return {
		accepted: d?.isAccepted ?? false,
		at: (d?.createdAt ?? new Date()).toISOString(),
		status: d?.status ?? 'pending',
		merchantDecisionId: d?.merchantDecisionId ?? null,
		received: d?.status === 'delivered' && d.merchantDecisionId === null
	};
};
