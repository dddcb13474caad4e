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
