import { fail, type RequestEvent } from '@sveltejs/kit';
import * as v from 'valibot';
import { app } from '$lib/server/app';
import { clientIp } from '$lib/server/http/meta';
import { hit } from '$lib/server/ratelimit/ratelimit';
import { documentVerdict } from './verdict';
import { verifyDocument } from './verify';

/** A certificate or signed copy is well under this; anything larger is not one of ours. */
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;
/** Checks per client address per 10 minutes: parsing PDFs and checking seals costs CPU. */
const CHECKS_PER_WINDOW = 60;

const UploadSchema = v.pipe(
	v.instance(File, 'Choose the PDF file to check.'),
	v.check((f) => f.name !== '' || f.size > 0, 'Choose the PDF file to check.'),
	v.check((f) => f.size > 0, 'That file is empty: choose the PDF itself.'),
	v.maxSize(
		MAX_UPLOAD_BYTES,
		'That file is larger than 8 MB, so it is not a certificate or signed copy from this portal.'
	)
);

/** The form action of /verify and /verify/<reference>: the uploaded file, checked. */
export async function verifyUpload(event: RequestEvent) {
	const ctx = app();
	const form = await event.request.formData();
	const parsed = v.safeParse(UploadSchema, form.get('document'));
	if (!parsed.success) {
		const tooBig = parsed.issues[0].type === 'max_size';
		return fail(tooBig ? 413 : 400, { error: parsed.issues[0].message });
	}
	const limit = await hit(ctx.db, {
		key: `verify:${clientIp(event) ?? 'unknown'}`,
		max: CHECKS_PER_WINDOW,
		windowSeconds: 600
	});
	if (!limit.ok) {
		const minutes = Math.max(1, Math.ceil(limit.retryAfterSeconds / 60));
		return fail(429, {
			error: `Too many checks from your address. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
		});
	}
	const bytes = new Uint8Array(await parsed.output.arrayBuffer());
	return {
		verdict: documentVerdict(await verifyDocument(ctx, bytes)),
		fileName: parsed.output.name.slice(0, 120)
	};
}
