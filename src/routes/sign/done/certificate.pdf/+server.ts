import { app } from '$lib/server/app';
import { listAudit, verifyAuditChain } from '$lib/server/audit/audit';
import { renderCertificate } from '$lib/server/audit/certificate';
import { decisionById } from '$lib/server/decisions/decisions';
import { requireStep } from '$lib/server/signing/guard';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = async (event) => {
	const s = requireStep(event, 'done');
	const ctx = app();
	const [events, verification, decision] = await Promise.all([
		listAudit(ctx.db, s.officeId, s.applicationId),
		verifyAuditChain(ctx.db, s.officeId, s.applicationId),
		decisionById(ctx.db, s.decisionId!)
	]);
	const pdf = await renderCertificate({
		officeId: s.officeId,
		applicationId: s.applicationId,
		businessName: s.businessName,
		signerName: decision
			? `${String(decision.body.MerchantFirstName)} ${String(decision.body.MerchantLastName)}`
			: '',
		outcome: decision?.isAccepted ? 'accepted' : 'declined',
		decisionReference:
			decision?.merchantDecisionId != null ? String(decision.merchantDecisionId) : null,
		events,
		verification,
		generatedAt: new Date()
	});
	return new Response(pdf as BodyInit, {
		headers: {
			'content-type': 'application/pdf',
			'content-disposition': `attachment; filename="signing-certificate-${s.applicationId}.pdf"`,
			'cache-control': 'no-store'
		}
	});
};
