import { error } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { requireStep } from '$lib/server/signing/guard';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = async (event) => {
	const s = requireStep(event, 'done');
	let pdf: Uint8Array;
	try {
		pdf = await app().onboarding.getApplicationPdf(s.officeId, s.applicationId);
	} catch {
		error(503, {
			message: 'The application PDF can’t be fetched right now. Try again in a minute.'
		});
	}
	return new Response(pdf as BodyInit, {
		headers: {
			'content-type': 'application/pdf',
			'content-disposition': `attachment; filename="application-${s.applicationId}.pdf"`,
			'cache-control': 'no-store'
		}
	});
};
