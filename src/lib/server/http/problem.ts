import * as devalue from 'devalue';
import { isApiPath, reasonsByField, type InputProblem } from './inputs';

const escape = (s: string) =>
	s.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!
	);

/** Whether the client is SvelteKit's `use:enhance`, which wants an ActionResult back. */
function wantsActionResult(request: Request): boolean {
	const accept = request.headers.get('accept') ?? '';
	return request.method === 'POST' && accept.includes('application/json');
}

/**
 * A page for a browser without script. It cannot be the app's own error page (the request never
 * reaches SvelteKit's renderer), so it is plain, and says that Back keeps what was typed.
 */
function page(problem: InputProblem): string {
	const reasons = Object.entries(problem.errors)
		.map(([field, reason]) => `<li>“${escape(field)}”: ${escape(reason)}</li>`)
		.join('');
	return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>This could not be accepted</title>
<style>body{font:1.0625rem/1.5 system-ui,sans-serif;color:#1b1f24;max-width:40rem;margin:0 auto;padding:1.5rem 1rem}h1{font-size:1.5rem}</style></head>
<body><main>
<h1>This could not be accepted</h1>
<p>${escape(problem.message)}</p>
<ul>${reasons}</ul>
<p>Use your browser’s Back button: what you typed is still there.</p>
</main></body>
</html>`;
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
export function problemResponse(request: Request, url: URL, problem: InputProblem): Response {
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
						data: devalue.stringify({ message: problem.message, errors: encodable(problem.errors) })
					}
				: { type: 'error', error: { message: problem.message } };
		return Response.json(result, { status: problem.status });
	}
	return new Response(page(problem), {
		status: problem.status,
		headers: {
			'content-type': 'text/html; charset=utf-8',
			'content-security-policy':
				// Everything on the page is ours or escaped; the one inline style is its layout.
				"default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
		}
	});
}
