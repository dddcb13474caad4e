import { fail, type RequestEvent } from '@sveltejs/kit';
import * as v from 'valibot';
import { app } from '$lib/server/app';
import { clientText } from '$lib/server/http/inputs';
import { clientIp } from '$lib/server/http/meta';
import { hit, waitWords } from '$lib/server/ratelimit/ratelimit';
import { documentVerdict } from './verdict';
import { verifyDocument } from './verify';
import { limitAddress } from '$lib/server/http/address';
import { uploadLimit } from './upload-limit';

/** Checks per client address per 10 minutes: parsing PDFs and checking seals costs CPU. */
const CHECKS_PER_WINDOW = 60;

const uploadSchema = (limit: { bytes: number; words: string }) =>
	v.pipe(
		v.instance(File, 'Choose the PDF file to check.'),
		v.check((f) => f.name !== '' || f.size > 0, 'Choose the PDF file to check.'),
		v.check((f) => f.size > 0, 'That file is empty: choose the PDF itself.'),
		v.maxSize(limit.bytes, tooLarge(limit.words))
	);

// Not "so it is not one of ours": a signed copy holds the service's application PDF, whose size
// is the service's, and may pass a BODY_SIZE_LIMIT lower than MAX_UPLOAD_BYTES.
const tooLarge = (words: string) =>
	`That file is larger than ${words}, the most this portal takes, so it can’t be checked here. A certificate from this portal is far smaller; a signed copy is this large only when the application in it is, and the sales office that sent it can check it against its own records.`;

/** The form action of /verify and /verify/<reference>: the uploaded file, checked. */
export async function verifyUpload(event: RequestEvent) {
	const ctx = app();
	const form = await event.request.formData();
	const parsed = v.safeParse(uploadSchema(uploadLimit()), form.get('document'));
	if (!parsed.success) {
		const tooBig = parsed.issues[0].type === 'max_size';
		return fail(tooBig ? 413 : 400, { error: parsed.issues[0].message });
	}
	const limit = await hit(ctx.db, {
		key: `verify:${limitAddress(clientIp(event))}`,
		max: CHECKS_PER_WINDOW,
		windowSeconds: 600
	});
	if (!limit.ok) {
		return fail(429, {
			error: `Too many checks from your address. Try again in ${waitWords(limit.retryAfterSeconds)}.`
		});
	}
	const bytes = new Uint8Array(await parsed.output.arrayBuffer());
	const checked = await verifyDocument(ctx, bytes);
	const answer = {
		verdict: documentVerdict(checked, ctx.config.OFFICE_TIME_ZONE),
		// Named on the sender's computer, maybe after the person.
		fileName: clientText(parsed.output.name, 120)
	};
	// A file that is no PDF at all is bad input (400); any PDF gets its verdict, good or bad.
	return checked.result === 'not-pdf' ? fail(400, answer) : answer;
}

/** What the upload form needs to state the limit and check it before sending. */
export function uploadForm() {
	const limit = uploadLimit();
	return { maxBytes: limit.bytes, maxWords: limit.words, tooLarge: tooLarge(limit.words) };
}
