import { error } from '@sveltejs/kit';
import { files } from '../../../lib/pages.server.js';

/**
 * The same bytes a portal PDF route sends, from memory: the floor of a file download.
 * @param {{ params: { page: string } }} event
 */
export function GET({ params }) {
	const bytes = files[params.page];
	if (bytes === undefined) error(404, 'No such floor file');
	return new Response(/** @type {BodyInit} */ (/** @type {unknown} */ (bytes)), {
		headers: { 'content-type': 'application/pdf', 'cache-control': 'no-store' }
	});
}
