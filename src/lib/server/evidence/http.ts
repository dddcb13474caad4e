/** A sealed PDF as a download: never cached, it carries personal data. */
export function pdfResponse(bytes: Uint8Array, filename: string): Response {
	return new Response(bytes as BodyInit, {
		headers: {
			'content-type': 'application/pdf',
			'content-disposition': `attachment; filename="${filename}"`,
			'cache-control': 'no-store'
		}
	});
}
