import type { AppContext } from '$lib/server/app';
import { listAudit, verifyAuditChain } from '$lib/server/audit/audit';
import { renderCertificate } from '$lib/server/audit/certificate';
import { decisionFor } from '$lib/server/decisions/decisions';

/**
 * The rep's copy of the signing certificate: the existing renderer over the application's whole
 * trail (to be replaced by src/lib/server/evidence when that lands).
 */
export async function repCertificate(
	ctx: AppContext,
	officeId: number,
	applicationId: number,
	businessName: string
): Promise<Uint8Array> {
	const [events, verification, decision] = await Promise.all([
		listAudit(ctx.db, officeId, applicationId),
		verifyAuditChain(ctx.db, officeId, applicationId),
		decisionFor(ctx.db, officeId, applicationId)
	]);
	const body = decision?.body as { MerchantFirstName?: unknown; MerchantLastName?: unknown };
	return renderCertificate({
		officeId,
		applicationId,
		businessName,
		signerName: decision
			? `${String(body.MerchantFirstName)} ${String(body.MerchantLastName)}`
			: '',
		outcome: decision ? (decision.isAccepted ? 'accepted' : 'declined') : 'pending',
		decisionReference:
			decision?.merchantDecisionId != null ? String(decision.merchantDecisionId) : null,
		events,
		verification,
		generatedAt: new Date()
	});
}

export const pdfResponse = (pdf: Uint8Array, filename: string) =>
	new Response(pdf as BodyInit, {
		headers: {
			'content-type': 'application/pdf',
			'content-disposition': `attachment; filename="${filename}"`,
			'cache-control': 'no-store'
		}
	});
