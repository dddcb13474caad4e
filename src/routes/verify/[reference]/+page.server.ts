import { app } from '$lib/server/app';
import { verifyReference } from '$lib/server/evidence';
import { uploadForm, verifyUpload } from '$lib/server/evidence/upload';
import { referenceVerdict } from '$lib/server/evidence/verdict';
import { answerPageWith } from '$lib/server/http/status';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ params, request }) => {
	const reference = params.reference.slice(0, 64);
	const found = await verifyReference(app(), reference);
	if (!found.found) answerPageWith(request, 404);
	return { reference, record: referenceVerdict(reference, found), upload: uploadForm() };
};

export const actions: Actions = { default: verifyUpload };
