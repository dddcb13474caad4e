import { verifyUpload } from '$lib/server/evidence/upload';
import type { Actions } from './$types';

export const actions: Actions = { default: verifyUpload };
