import { error } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { EvidenceNotFoundError, NotSignedError, signedCopyPdf } from '$lib/server/evidence';
import { chainHeadReadWith, NO_COPIES_EARLY_DECLINE, pdfResponse } from '$lib/server/evidence/http';
import { OnboardingError } from '$lib/server/onboarding';
import { requireStep } from '$lib/server/signing/guard';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = async (event) => {
	const s = requireStep(event, 'done');
	try {
		const pdf = await signedCopyPdf(app(), {
			officeId: s.officeId,
			applicationId: s.applicationId,
			origin: event.url.origin,
			chainHead: chainHeadReadWith(event.locals, s.id)
		});
		return pdfResponse(pdf, `signed-application-${s.applicationId}.pdf`);
	} catch (err) {
		if (err instanceof EvidenceNotFoundError) error(404, { message: NO_COPIES_EARLY_DECLINE });
		if (err instanceof NotSignedError) {
			error(404, { message: 'You declined this application, so there is no signed copy.' });
		}
		if (err instanceof OnboardingError) {
			error(503, {
				message: 'The application PDF can’t be fetched right now. Try again in a minute.'
			});
		}
		throw err;
	}
};
