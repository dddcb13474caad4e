import { app } from '$lib/server/app';
import { verifyReference } from '$lib/server/evidence';
import { uploadForm, verifyUpload } from '$lib/server/evidence/upload';
import { referenceVerdict } from '$lib/server/evidence/verdict';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ params }) => {
	const reference = params.reference.slice(0, 64);
	return {
		reference,
		record: referenceVerdict(reference, await verifyReference(app(), reference)),
		upload: uploadForm()
	};
};

export const actions: Actions = { default: verifyUpload };
