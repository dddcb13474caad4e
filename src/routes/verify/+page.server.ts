import { redirect } from '@sveltejs/kit';
import { uploadForm, verifyUpload } from '$lib/server/evidence/upload';
import { answerPageWith } from '$lib/server/http/status';
import { shownBackCut } from '$lib/server/signing/ssn';
import { referenceLookup, SSN_REFUSED } from './lookup';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = ({ url, request }) => {
	// "Check by reference" as an address (`?reference=`, the box's answer when it is refused, or a
	// bookmark): its page, or why not.
	const asked = url.searchParams.get('reference');
	if (url.searchParams.get('refused') === 'ssn') {
		return { upload: uploadForm(), lookup: { typed: '', error: SSN_REFUSED } };
	}
	if (asked === null) return { upload: uploadForm(), lookup: null };
	const lookup = referenceLookup(asked);
	if ('to' in lookup) redirect(303, lookup.to);
	answerPageWith(request, 400);
	// Cut to what the box shows, less what looks like an SSN once cut (as the action does).
	const typed = shownBackCut(asked, 100);
	return { upload: uploadForm(), lookup: { typed, error: lookup.refused } };
};

export const actions: Actions = {
	upload: verifyUpload,
	// "Check by reference", posted so that an SSN typed there by mistake reaches no address (an
	// access log, a proxy's): answered with the reference's page, or this page saying why not.
	lookup: async ({ request }) => {
		const typed = (await request.formData()).get('reference');
		const asked = typeof typed === 'string' ? typed : '';
		const lookup = referenceLookup(asked);
		if ('to' in lookup) redirect(303, lookup.to);
		// Refused: this page with it in the address, cut to what the page shows back (and looked
		// at again, as a cut can leave nine digits alone).
		const kept = asked.slice(0, 100);
		const again = referenceLookup(kept);
		redirect(303, 'to' in again ? again.to : `/verify?${new URLSearchParams({ reference: kept })}`);
	}
};
