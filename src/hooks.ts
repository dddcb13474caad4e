import type { Transport } from '@sveltejs/kit';
import { DrawnSection, drawnHtml } from '$lib/terms-section';

export const transport: Transport = {
	DrawnSection: {
		encode: (value) => value instanceof DrawnSection && [value.key, value.title],
		decode: ([key, title]: [string, string]) => ({ key, title, html: drawnHtml(key) })
	}
};
