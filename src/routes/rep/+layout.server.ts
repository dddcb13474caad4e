import type { LayoutServerLoad } from './$types';

// Not a guard (each page and action guards itself): only who is signed in, for the header.
export const load: LayoutServerLoad = ({ locals }) => ({
	signedIn:
		// A tablet in a merchant's hands names nobody and offers no console.
		locals.rep && !locals.handover
			? {
					name: locals.rep.name,
					officeId: locals.rep.officeId,
					repNo: locals.rep.repNo,
					// Nothing but the password page opens until the rep chooses one (requireRep).
					passwordTemporary: locals.rep.passwordTemporary
				}
			: null
});
