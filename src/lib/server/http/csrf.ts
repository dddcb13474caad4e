import { maskedSsn } from '$lib/server/signing/ssn';
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
 * Only the operator's JSON endpoints are exempt, by path (the operator API and /dev/reminders):
 * they authenticate by bearer key alone and never by cookie, so a forged cross-site post gains
 * nothing there, and a form sent to them is refused as not JSON. Any other path is checked
 * whatever headers the request carries.
 */
export function isForeignFormPost(request: Request, url: URL): boolean {
	if (!UNSAFE.has(request.method)) return false;
	const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
	if (!FORM_TYPES.includes(type)) return false;
	if (isOperatorApiPath(url.pathname) || url.pathname === '/dev/reminders') return false;
	const from = request.headers.get('origin');
	if (from === url.origin) return false;
	const site = request.headers.get('sec-fetch-site');
	if (site === 'same-origin' && from !== null && loopbackAlias(from, url)) return false;
	return !((from === 'null' || from === null) && site === 'same-origin');
}

/**
 * Why a form post was refused, in words. A browser that says the post came from the page's own
 * origin, while that origin is not the portal's, is not under attack: the portal was opened at
 * another address than its ORIGIN (a proxy's name, a typo in the setting). Say which address works.
 */
export function foreignFormMessage(request: Request, url: URL): string {
	const from = otherOwnOrigin(request, url);
	if (from) {
		return `This form was sent from a page at ${from}, but this portal's address is ${url.origin}, so it was refused. Open the portal at ${url.origin}; if that address is wrong, its operator sets ORIGIN to the one people use.`;
	}
	// Neither header: not "another website", which nothing said. Browsers send one or the other
	// with every post; a program, or an add-on that strips them, does not.
	if (!request.headers.has('origin') && !request.headers.has('sec-fetch-site')) return UNSAID_FORM;
	return FOREIGN_FORM;
}

/** A post that says nothing of the page it came from. */
const UNSAID_FORM =
	'Browsers say which page a form was sent from; this one did not, so it was refused and nothing was done. Send it from the portal’s own page, in a browser without add-ons that remove that.';

/** An origin as browsers write it: a scheme, a host (a name or an address) and a port. */
const ORIGIN_SHAPE = /^https?:\/\/(?:[a-z0-9.-]{1,253}|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i;

/**
 * The origin a browser says a form came from, when it vouches that is the page's own and it is
 * not ORIGIN; only one written as browsers write them (a client could send anything), and less
 * what looks like an SSN, since it is shown and logged.
 */
function otherOwnOrigin(request: Request, url: URL): string | null {
	const from = request.headers.get('origin');
	const site = request.headers.get('sec-fetch-site');
	if (site !== 'same-origin' || !from || from === url.origin || !ORIGIN_SHAPE.test(from)) {
		return null;
	}
	return maskedSsn(from, '[number]');
}

const told = new Set<string>();

/**
 * For the operator, once per address and for ten at most: forms refused because the portal is
 * opened at another address than its ORIGIN. The people it happens to see the address to use; the
 * operator, who can mend the setting, saw nothing in the log. The headers are the client's word,
 * which any program can give: the line says so, lest ORIGIN (the address in every link emailed
 * to a merchant) be set to one a stranger chose.
 */
export function logOtherOwnOrigin(request: Request, url: URL): void {
	const from = otherOwnOrigin(request, url);
	if (!from || told.has(from) || told.size >= 10) return;
	told.add(from);
	console.warn(
		`[origin] a form was refused: the browser said it was sent from this portal's own page at ${from}, but ORIGIN is ${url.origin}. If this portal is served at ${from} (a proxy's name, a mistyped setting), set ORIGIN to it; if not, someone else's program sent it, and nothing needs mending.`
	);
}

/** A post from a page elsewhere, or one the browser does not vouch for. */
export const FOREIGN_FORM =
	'This form was sent from a page on another website, so it was refused and nothing was done.';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * `npm start` prints http://localhost:<port>, and a developer may open http://127.0.0.1:<port>
 * instead: the same server under another name, whose forms were refused as cross-site. One
 * loopback name stands for another on the same port and scheme, and only when the browser says
 * the post came from the page's own origin.
 */
function loopbackAlias(from: string, url: URL): boolean {
	if (!LOOPBACK.has(url.hostname)) return false;
	try {
		const origin = new URL(from);
		return (
			LOOPBACK.has(origin.hostname) && origin.port === url.port && origin.protocol === url.protocol
		);
	} catch {
		return false;
	}
}
