import { uploadForm, verifyUpload } from '$lib/server/evidence/upload';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = () => ({ upload: uploadForm() });

export const actions: Actions = { default: verifyUpload };
