/**
 * The endpoints (`+server.ts`) that answer GET alone: the PDFs, the health check, the mailbox's
 * messages, the icon. Anything else sent to them is answered 405 before the checks of a form's
 * origin and body (a POST of JSON to /healthz was told that forms are taken only as forms, as if
 * there were a form there). methods.spec.ts holds this list to the routes folder.
 */
export const GET_ONLY_ROUTES: ReadonlySet<string> = new Set([
	'/favicon.ico',
	'/healthz',
	'/dev/mailbox/[id]',
	'/rep/applications/[applicationId]/application.pdf',
	'/rep/applications/[applicationId]/certificate.pdf',
	'/rep/applications/[applicationId]/signed-copy.pdf',
	'/rep/applications/[applicationId]/signer-certificate.pdf',
	'/sign/done/certificate.pdf',
	'/sign/done/signed-copy.pdf',
	'/sign/sign/application.pdf'
]);

/** What a GET-only endpoint answers: GET itself, and HEAD, which SvelteKit answers from GET. */
export const GET_ONLY_ALLOW = 'GET, HEAD';

/** The 405's words: the method sent, and the ones the address answers. */
export const methodNotAccepted = (method: string, allow: string) =>
	`${method} is not accepted at this address: it answers ${allow.split(/,\s*/).join(', ')}.`;

/** The 405 itself, in those words, with `Allow`. */
export const notAcceptedResponse = (method: string, allow: string) =>
	new Response(methodNotAccepted(method, allow), {
		status: 405,
		headers: { allow, 'content-type': 'text/plain; charset=utf-8' }
	});
