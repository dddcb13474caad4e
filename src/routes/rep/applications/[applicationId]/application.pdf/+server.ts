import { error } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { pdfResponse } from '$lib/server/evidence/http';
import { requireOfficeApplication } from '$lib/server/reps/guard';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = async (event) => {
	const { rep, applicationId } = await requireOfficeApplication(event);
	let pdf: Uint8Array;
	try {
		pdf = await app().onboarding.getApplicationPdf(rep.officeId, applicationId);
	} catch {
		error(503, {
			message: 'The application PDF can’t be fetched right now. Try again in a minute.'
		});
	}
	return pdfResponse(pdf, `application-${applicationId}.pdf`);
};
