import { error } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { requestMeta } from '$lib/server/http/meta';
import { requireStep } from '$lib/server/signing/guard';
import { sectionsForPage, showTerms } from '$lib/server/signing/terms';
import type { PageServerLoad } from './$types';

// Reading the documents again before signing: the same sections, recorded as shown if changed.
export const load: PageServerLoad = async (event) => {
	const session = requireStep(event, 'sign');
	try {
		const { sections } = await showTerms(app(), session, requestMeta(event));
		return { sections: sectionsForPage(sections, event.isDataRequest) };
	} catch {
		error(503, {
			message: 'We can’t load the agreement right now. Wait a minute, then reload this page.'
		});
	}
};
