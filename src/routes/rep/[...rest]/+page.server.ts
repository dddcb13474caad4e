import { error } from '@sveltejs/kit';
import type { Actions, PageServerLoad } from './$types';

const notHere = () =>
	error(404, { message: 'There is no page at this address in the rep console.' });

// An address under /rep that matches no page is answered inside the rep layout, so its error
// page knows who is signed in: a signed-in rep is offered the way back to their office's
// applications, not a sign-in link. A form posted there is refused the same way (not 405).
export const load: PageServerLoad = notHere;
export const actions: Actions = { default: notHere };
