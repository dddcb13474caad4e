import { error } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { certificatePdf, EvidenceNotFoundError } from '$lib/server/evidence';
import { decidedElsewhere, pdfResponse } from '$lib/server/evidence/http';
import { isDecided } from '$lib/server/onboarding';
import { requireOfficeApplication } from '$lib/server/reps/guard';
import type { RequestHandler } from './$types';

/** The rep's copy of the certificate of completion: the merchant's, plus the whole trail. */
export const GET: RequestHandler = async (event) => {
	const { rep, applicationId, application } = await requireOfficeApplication(event);
	try {
		const pdf = await certificatePdf(app(), {
			officeId: rep.officeId,
			applicationId,
			audience: 'rep',
			origin: event.url.origin
		});
		return pdfResponse(pdf, `certificate-of-completion-${applicationId}.pdf`);
	} catch (err) {
		if (err instanceof EvidenceNotFoundError) {
			error(404, {
				message: isDecided(application) ? decidedElsewhere('certificate') : NO_DECISION
			});
		}
		throw err;
	}
};

const NO_DECISION =
	'There is no certificate for this application: one is made when the merchant signs, or declines after their identity is confirmed. The application’s page shows where it stands.';
