import { isOperatorApiPath } from './operator-auth';

/** What SvelteKit itself protects as a form: what a browser's form (or `use:enhance`) can send. */
const FORM_TYPES = [
	'application/x-www-form-urlencoded',
	'multipart/form-data',
	'text/plain',
	'application/x-sveltekit-formdata'
];
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Whether a form submission comes from a page of ours. It replaces SvelteKit's own origin check,
 * which this portal cannot use: with `Referrer-Policy: no-referrer` (kept so signing-link tokens
 * never leak), browsers send `Origin: null` on plain form posts from our own pages. A `null`
 * origin is accepted only when the browser itself vouches with `Sec-Fetch-Site: same-origin`
 * (a header pages cannot set); a sandboxed frame elsewhere also sends `null`, but not that.
 *
 * Only the operator API is exempt, by path: it authenticates by bearer key alone and never by
 * cookie, so a forged cross-site post gains nothing there. Any other path is checked whatever
 * headers the request carries.
 */
export function isForeignFormPost(request: Request, url: URL): boolean {
	if (!UNSAFE.has(request.method)) return false;
	const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
	if (!FORM_TYPES.includes(type)) return false;
	if (isOperatorApiPath(url.pathname)) return false;
	const from = request.headers.get('origin');
	if (from === url.origin) return false;
	const site = request.headers.get('sec-fetch-site');
	return !((from === 'null' || from === null) && site === 'same-origin');
}
