import { error } from '@sveltejs/kit';
import { pages } from '../../lib/pages.server.js';

/** @param {{ params: { page: string } }} event */
export function load({ params }) {
	const html = pages[params.page];
	if (html === undefined) error(404, 'No such floor page');
	return { html };
}

/** @type {import('@sveltejs/kit').Actions} */
export const actions = {
	default: async () => ({ done: true })
};
