import { app } from '$lib/server/app';
import { pdfResponse, repCertificate } from '$lib/server/console/documents';
import { requireOfficeApplication } from '$lib/server/reps/guard';
import { businessName } from '$lib/server/signing/application';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = async (event) => {
	const { rep, application, applicationId } = await requireOfficeApplication(event);
	const pdf = await repCertificate(app(), rep.officeId, applicationId, businessName(application));
	return pdfResponse(pdf, `signing-certificate-${applicationId}.pdf`);
};
