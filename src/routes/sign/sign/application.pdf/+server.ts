import { error } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { offerApplicationPdf } from '$lib/server/evidence';
import { pdfResponse } from '$lib/server/evidence/http';
import { OnboardingError } from '$lib/server/onboarding';
import { requireStep } from '$lib/server/signing/guard';
import type { RequestHandler } from './$types';

// What the merchant signs, opened in the browser: the very bytes whose hash the decision records.
export const GET: RequestHandler = async (event) => {
	const s = requireStep(event, 'sign');
	try {
		const pdf = await offerApplicationPdf(app(), s);
		return pdfResponse(pdf.bytes, `application-${s.applicationId}.pdf`, 'inline');
	} catch (err) {
		if (err instanceof OnboardingError) {
			error(503, {
				message: 'The application PDF can’t be fetched right now. Try again in a minute.'
			});
		}
		throw err;
	}
};
