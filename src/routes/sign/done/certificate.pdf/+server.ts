import { error } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { certificatePdf, EvidenceNotFoundError } from '$lib/server/evidence';
import { chainHeadReadWith, NO_COPIES_EARLY_DECLINE, pdfResponse } from '$lib/server/evidence/http';
import { requireStep } from '$lib/server/signing/guard';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = async (event) => {
	const s = requireStep(event, 'done');
	try {
		const pdf = await certificatePdf(app(), {
			officeId: s.officeId,
			applicationId: s.applicationId,
			audience: 'merchant',
			sessionId: s.id,
			origin: event.url.origin,
			chainHead: chainHeadReadWith(event.locals, s.id)
		});
		return pdfResponse(pdf, `certificate-of-completion-${s.applicationId}.pdf`);
	} catch (err) {
		if (err instanceof EvidenceNotFoundError) error(404, { message: NO_COPIES_EARLY_DECLINE });
		throw err;
	}
};
