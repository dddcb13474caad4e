import { error, type RequestHandler } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { certificatePdf, EvidenceNotFoundError } from '$lib/server/evidence';
import { decidedElsewhere, pdfResponse } from '$lib/server/evidence/http';
import { isDecided } from '$lib/server/onboarding';
import { requireOfficeApplication } from '$lib/server/reps/guard';

const NO_DECISION =
	'There is no certificate for this application: one is made when the merchant signs, or declines after their identity is confirmed. The application’s page shows where it stands.';

/**
 * A certificate of completion for a rep of the application's office: the rep's own copy (`rep`:
 * with the application's whole trail, for the office only), or the signer's (`merchant`: what
 * the merchant downloaded when they finished, made and sealed again: the copy to send them).
 */
export const certificateFor =
	(audience: 'rep' | 'merchant'): RequestHandler =>
	async (event) => {
		const { rep, applicationId, application } = await requireOfficeApplication(event);
		try {
			const pdf = await certificatePdf(app(), {
				officeId: rep.officeId,
				applicationId,
				audience,
				origin: event.url.origin
			});
			// The signer's under the name the merchant's own download has; the office's says it is.
			const name = `certificate-of-completion-${applicationId}${audience === 'rep' ? '-office-copy' : ''}.pdf`;
			return pdfResponse(pdf, name);
		} catch (err) {
			if (err instanceof EvidenceNotFoundError) {
				error(404, {
					message: isDecided(application) ? decidedElsewhere('certificate') : NO_DECISION
				});
			}
			throw err;
		}
	};
