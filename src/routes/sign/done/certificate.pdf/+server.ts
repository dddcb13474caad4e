import { app } from '$lib/server/app';
import { certificatePdf } from '$lib/server/evidence';
import { pdfResponse } from '$lib/server/evidence/http';
import { requireStep } from '$lib/server/signing/guard';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = async (event) => {
	const s = requireStep(event, 'done');
	const pdf = await certificatePdf(app(), {
		officeId: s.officeId,
		applicationId: s.applicationId,
		audience: 'merchant',
		sessionId: s.id,
		origin: event.url.origin
	});
	return pdfResponse(pdf, `certificate-of-completion-${s.applicationId}.pdf`);
};
