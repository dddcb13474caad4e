/** A letter, digit or one of -._~ written as %XX: RFC 3986's unreserved characters. */
const ESCAPED_UNRESERVED = /%(?:[46][1-9A-F]|[57][0-9A]|3[0-9]|2[DE]|5F|7E)/i;

/**
 * The path written plainly, when it spells a letter, a digit or one of -._~ as %XX (which means
 * the character itself: RFC 3986 §6.2.2.2); null when it does not. SvelteKit routes on the
 * decoded path, while the hooks' checks (the operator API's JSON, the CSRF check's exemption,
 * the sandbox, the sessions' paths) read it as sent: `/%61pi/v1/…` reached the operator API past
 * its content-type check. Such an address is sent to its plain form, or refused.
 */
export function plainPath(pathname: string): string | null {
	if (!ESCAPED_UNRESERVED.test(pathname)) return null;
	// One slash to start: `//%65vil.example` must not become a redirect to another host.
	return pathname.replace(/^\/+/, '/').replace(/%([0-9A-F]{2})/gi, (escaped, hex: string) => {
		const c = String.fromCharCode(parseInt(hex, 16));
		return /^[A-Za-z0-9\-._~]$/.test(c) ? c : escaped;
	});
}
