import { redirect } from '@sveltejs/kit';
import * as v from 'valibot';
import { uploadForm, verifyUpload } from '$lib/server/evidence/upload';
import { answerPageWith } from '$lib/server/http/status';
import { looksLikeSsn } from '$lib/server/signing/ssn';
import { ReferenceSchema, SSN_REFUSED } from './lookup';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = ({ url, request }) => {
	// "Check by reference" (a form sent by GET, with or without script): its page, or why not.
	const asked = url.searchParams.get('reference');
	if (url.searchParams.get('refused') === 'ssn') {
		return { upload: uploadForm(), lookup: { typed: '', error: SSN_REFUSED } };
	}
	if (asked === null) return { upload: uploadForm(), lookup: null };
	const parsed = v.safeParse(ReferenceSchema, asked);
	if (parsed.success) redirect(303, `/verify/${parsed.output}`);
	// Not a reference (whose hex digits may run nine in a row), but an SSN: not kept in the address
	// bar or the browser's history, nor shown back; asked again without it.
	if (looksLikeSsn(asked)) redirect(303, '/verify?refused=ssn');
	answerPageWith(request, 400);
	return {
		upload: uploadForm(),
		lookup: { typed: asked.slice(0, 100), error: parsed.issues[0].message }
	};
};

export const actions: Actions = { default: verifyUpload };
