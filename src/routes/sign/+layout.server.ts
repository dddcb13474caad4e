import { currentStep } from '$lib/server/signing/session';
import type { LayoutServerLoad } from './$types';

export const load: LayoutServerLoad = ({ locals }) => {
	const s = locals.signing;
	return {
		business: s?.businessName ?? null,
		step: s ? currentStep(s) : null,
		channel: s?.channel ?? null
	};
};
