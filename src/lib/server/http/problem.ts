import * as devalue from 'devalue';
import { uploadLimit } from '$lib/server/evidence/upload-limit';
import type { RepContact } from '$lib/server/reps/contact';
import { dialable } from '$lib/tel';
import { addressLooksLikeSsn } from '$lib/server/signing/ssn';
import { actionName, fieldName, isApiPath, reasonsByField, type InputProblem } from './inputs';

const escape = (s: string) =>
	s.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!
	);

/** Whether the client is SvelteKit's `use:enhance`, which wants an ActionResult back. */
export function wantsActionResult(request: Request): boolean {
	const accept = request.headers.get('accept') ?? '';
	return request.method === 'POST' && accept.includes('application/json');
}

/**
 * The portal's form fields, in the words their labels use: a refusal names the field it is
 * about as the person saw it, not by the name the page gave it.
 */
const LABELS: Record<string, string> = {
	firstName: 'First name',
	lastName: 'Last name',
	email: 'Email',
	notificationEmail: 'Notification email',
	ssn: 'Social Security Number',
	signature: 'Signature',
	reason: 'Reason',
	consent: 'I agree',
	password: 'Password',
	current: 'Current password',
	again: 'New password again',
	idType: 'ID type',
	idLast4: 'Last four characters of the ID',
	photoIdChecked: 'Photo ID checked',
	q: 'Search',
	state: 'State',
	document: 'File'
};

/** A field as its label names it; a reason about the whole form, or a field we never show, has none. */
function labelOf(field: string): string | null {
	if (Object.hasOwn(LABELS, field)) return LABELS[field]!;
	if (/^q-/.test(field)) return 'An answer to an identity question';
	return null;
}

export interface RefusalPage {
	status: number;
	title: string;
	message: string;
	/** Reasons to list, each with the label of its field if it has one. */
	reasons?: [label: string | null, reason: string][];
	/** What to do next: one sentence. */
	next: string;
	/** The page the refused form was on, to open again (GET), or none. */
	again?: string;
	/** On a signing step: whom the merchant can ask, as the step's own page names them. */
	contact?: SigningContact;
}

/** The rep a signing step names (null: none is known), and whether it runs on the rep's tablet. */
export interface SigningContact {
	rep: RepContact | null;
	inPerson: boolean;
}

/**
 * RepContact.svelte's words and layout, for a page that is not the app's: each way to reach the
 * rep on a line of its own, a tap's height (the commas stay for whatever reads it unstyled).
 * Written again rather than shared: a module the component imported would join the chunk every
 * signing step loads (tests/bench/NOTES.md §20).
 */
function contactLine({ rep, inPerson }: SigningContact): string {
	if (inPerson) {
		return 'Your sales representative is the person from your sales office who handed you this device: hand it back to them with any question.';
	}
	if (!rep) {
		return 'Your sales representative is the person at your sales office who set up this application with you; your signing link came from your sales office on their behalf.';
	}
	const lead = rep.office
		? 'Reach your sales representative through your sales office'
		: 'Your sales representative';
	const email = `<a href="mailto:${escape(rep.email)}">${escape(rep.email)}</a>`;
	const phone = rep.phone
		? `<span>,</span> <a href="tel:${escape(dialable(rep.phone))}">${escape(rep.phone)}</a>`
		: '';
	return `${lead}: <strong>${escape(rep.name)}</strong><span>,</span> ${email}${phone}`;
}

/**
 * A page for a browser without script, for a request refused before SvelteKit's renderer (so not
 * the app's own error page): plain, in the portal's colours, everything in it ours or escaped.
 */
export function refusalPage(p: RefusalPage): Response {
	const reasons = (p.reasons ?? [])
		.map(([label, reason]) => `<li>${label ? `${escape(label)}: ` : ''}${escape(reason)}</li>`)
		.join('');
	// One slash to start: a path that begins `//host` (or `/\host`, which browsers read alike) is
	// another site's address to a link.
	const again = p.again
		? `<p><a href="${escape(p.again.replace(/^[/\\]+/, '/'))}">Open the page again</a> (empty, as it first was).</p>`
		: '';
	const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(p.title)}</title>
<style>body{font:1.0625rem/1.5 system-ui,sans-serif;color:#1b1f24;max-width:40rem;margin:0 auto;padding:1.5rem 1rem}h1{font-size:1.5rem;color:#a4161a}a{color:#1f4e79}.rep{overflow-wrap:anywhere}.rep a{display:block;width:fit-content;padding-block:.6rem}.rep span{display:none}</style></head>
<body><main>
<h1>${escape(p.title)}</h1>
<p>${escape(p.message)}</p>
${reasons ? `<ul>${reasons}</ul>\n` : ''}<p>${escape(p.next)}</p>
${again}${p.contact ? `<p class="rep">${contactLine(p.contact)}</p>\n` : ''}</main></body>
</html>`;
	return new Response(html, {
		status: p.status,
		headers: {
			'content-type': 'text/html; charset=utf-8',
			'content-security-policy':
				// Everything on the page is ours or escaped; the one inline style is its layout.
				"default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
		}
	});
}

/** What to do after a refused form, by why it was refused and where it was. */
function nextStep(problem: InputProblem, url: URL): string {
	// The sign step's SSN field is a password's: browsers put nothing back in it.
	const kept =
		url.pathname === '/sign/sign'
			? 'what you typed is still there, but for your Social Security Number, which you type again'
			: 'what you typed is still there';
	if (problem.status === 413) {
		// /verify's is the one form with a file; the others hold a few short fields.
		return url.pathname.startsWith('/verify')
			? `A file larger than ${uploadLimit().words} can’t be checked here, but the decision reference printed on it can: use your browser’s Back button and type it into the second box. Or ask the sales office that sent the file to check it against its records.`
			: `Use your browser’s Back button: ${kept}. Shorten what you pasted into it, and send it again.`;
	}
	// Before the sign step a decline's reason is in a disclosure, which Back shows closed.
	if (Object.hasOwn(problem.errors, 'reason') && url.pathname !== '/sign/sign') {
		return `Use your browser’s Back button: ${kept}, under “I don’t want to sign”.`;
	}
	return `Use your browser’s Back button: ${kept}.`;
}

/**
 * The reasons as devalue (which encodes an ActionResult's data) takes them. Their keys are the
 * names the client sent, and devalue refuses an object with a `__proto__` key (and a body with
 * one is exactly what is refused here), so that one is named in brackets.
 */
function encodable(errors: Record<string, string>): Record<string, string> {
	const out: Record<string, string> = {};
	// `__proto__` is the one name that is an accessor on a plain object: every other one is a key.
	for (const [field, reason] of Object.entries(errors)) {
		out[field === '__proto__' ? '[__proto__]' : field] = reason;
	}
	return out;
}

/**
 * The answer to a request `checkRequest` refused, in the form its client reads: the operator
 * API's JSON (`message` and `errors` by field), an ActionResult for an enhanced form (a failure
 * carries the field errors to the page, which keeps what was typed), or a page.
 */
export function problemResponse(
	request: Request,
	url: URL,
	problem: InputProblem,
	contact?: SigningContact
): Response {
	if (isApiPath(url.pathname)) {
		const errors = reasonsByField<string[]>();
		for (const [k, v] of Object.entries(problem.errors)) errors[k] = [v];
		return Response.json({ message: problem.message, errors }, { status: problem.status });
	}
	if (wantsActionResult(request)) {
		// A failure the page shows beside its form: bad input, or a body over the server's limit.
		const result =
			problem.status === 400 || problem.status === 413
				? {
						type: 'failure',
						status: problem.status,
						data: devalue.stringify({
							// Which of the page's forms was refused (see lib/forms/refusal.ts).
							action: fieldName(actionName(url) ?? 'default'),
							message: problem.message,
							errors: encodable(problem.errors)
						})
					}
				: { type: 'error', error: { message: problem.message } };
		return Response.json(result, { status: problem.status });
	}
	return refusalPage({
		status: problem.status,
		title: 'This could not be accepted',
		message: problem.message,
		reasons: Object.entries(problem.errors).map(([field, reason]) => [labelOf(field), reason]),
		next: nextStep(problem, url),
		// The address as it came, unless it holds what looks like an SSN (typed by hand): no link.
		again: addressLooksLikeSsn(url.pathname) ? undefined : url.pathname,
		contact
	});
}
