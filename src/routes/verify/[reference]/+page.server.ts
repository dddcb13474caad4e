import { redirect } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { isUuid } from '$lib/server/db/uuid';
import { looksLikeSsn } from '$lib/server/signing/ssn';
import { verifyReference } from '$lib/server/evidence';
import { uploadForm, verifyUpload } from '$lib/server/evidence/upload';
import { referenceVerdict } from '$lib/server/evidence/verdict';
import { answerPageWith } from '$lib/server/http/status';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ params, request }) => {
	// A reference's hex digits may run nine in a row: only what is no reference is taken for an SSN,
	// as asked and as cut to what the page shows (a cut can leave nine digits of a longer number).
	const reference = params.reference.slice(0, 64);
	const ssnIn = (text: string) => !isUuid(text.toLowerCase()) && looksLikeSsn(text);
	if (ssnIn(params.reference) || ssnIn(reference)) redirect(303, '/verify?refused=ssn');
	const ctx = app();
	const found = await verifyReference(ctx, reference);
	if (!found.found) answerPageWith(request, 404);
	return {
		reference,
		record: referenceVerdict(reference, found, ctx.config.OFFICE_TIME_ZONE),
		upload: uploadForm()
	};
};

export const actions: Actions = { upload: verifyUpload };
