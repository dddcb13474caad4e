import { error } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { EvidenceNotFoundError, NotSignedError, signedCopyPdf } from '$lib/server/evidence';
import { decidedElsewhere, pdfResponse } from '$lib/server/evidence/http';
import { isDecided, OnboardingError } from '$lib/server/onboarding';
import { requireOfficeApplication } from '$lib/server/reps/guard';
import type { RequestHandler } from './$types';

/** The application as the merchant was shown it, with the signature page. */
export const GET: RequestHandler = async (event) => {
	const { rep, applicationId, application } = await requireOfficeApplication(event);
	try {
		const pdf = await signedCopyPdf(app(), {
			officeId: rep.officeId,
			applicationId,
			origin: event.url.origin
		});
		return pdfResponse(pdf, `signed-application-${applicationId}.pdf`);
	} catch (err) {
		if (err instanceof EvidenceNotFoundError || err instanceof NotSignedError) {
			error(404, {
				message:
					err instanceof EvidenceNotFoundError && isDecided(application)
						? decidedElsewhere('signed copy')
						: 'There is no signed copy: the merchant has not accepted and signed this application.'
			});
		}
		if (err instanceof OnboardingError) {
			error(503, {
				message: 'The application PDF can’t be fetched right now. Try again in a minute.'
			});
		}
		throw err;
	}
};
