/**
 * A PDF for the merchant, never cached (it carries personal data): a download (`attachment`) or
 * opened in the browser's own viewer (`inline`), as the application is on the sign step.
 */
export function pdfResponse(
	bytes: Uint8Array,
	filename: string,
	disposition: 'attachment' | 'inline' = 'attachment'
): Response {
	return new Response(bytes as BodyInit, {
		headers: {
			'content-type': 'application/pdf',
			'content-disposition': `${disposition}; filename="${filename}"`,
			'cache-control': 'no-store'
		}
	});
}

/**
 * The done page of a decline before identity offers no copies: none is made without a confirmed
 * identity. Its addresses, typed or kept from another signing, say so.
 */
export const NO_COPIES_EARLY_DECLINE =
	'You declined before your identity was confirmed, so there is no certificate or signed copy. Your sales representative has your decision.';

/**
 * A rep's certificate or signed copy asked for (an address typed, or kept) of an application the
 * onboarding service has as decided with no signing here: the application page's own words.
 */
export const decidedElsewhere = (document: 'certificate' | 'signed copy') =>
	`There is no ${document} for this application: the onboarding service has it as decided outside the portal, so the portal holds no signing of it. The application’s page shows where it stands.`;

/**
 * The chain head the session's statement read for this session (hooks.server.ts, DONE_PDFS), or
 * undefined for the documents to read it: a tablet's hand-over may have put another session in
 * its place since.
 */
export function chainHeadReadWith(
	locals: App.Locals,
	sessionId: string
): string | null | undefined {
	const read = locals.signingChainHead;
	return read?.sessionId === sessionId ? read.head : undefined;
}
