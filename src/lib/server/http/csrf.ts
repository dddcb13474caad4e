const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Whether a form submission comes from a page of ours. It replaces SvelteKit's own origin check,
 * which this portal cannot use: with `Referrer-Policy: no-referrer` (kept so signing-link tokens
 * never leak), browsers send `Origin: null` on plain form posts from our own pages. A `null`
 * origin is accepted only when the browser itself vouches with `Sec-Fetch-Site: same-origin`
 * (a header pages cannot set); a sandboxed frame elsewhere also sends `null`, but not that.
 */
export function isForeignFormPost(request: Request, origin: string): boolean {
	if (!UNSAFE.has(request.method)) return false;
	const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
	if (!FORM_TYPES.includes(type)) return false;
	// An HTML form cannot send an Authorization header: such a request (the operator API's
	// bearer key) carries its own credential, not the cookies CSRF abuses.
	if (request.headers.has('authorization')) return false;
	const from = request.headers.get('origin');
	if (from === origin) return false;
	const site = request.headers.get('sec-fetch-site');
	return !((from === 'null' || from === null) && site === 'same-origin');
}
