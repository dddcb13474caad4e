import { readFileSync } from 'node:fs';

/**
 * What each floor page shows: the HTML of the portal page it stands for (its `<main>`), and the
 * bytes of each PDF, captured by the benchmark and handed over in the file FLOOR_PAGES names.
 * @type {{ pages: Record<string, string>, files: Record<string, string> }}
 */
const input = process.env.FLOOR_PAGES
	? JSON.parse(readFileSync(process.env.FLOOR_PAGES, 'utf8'))
	: { pages: {}, files: {} };

export const pages = input.pages;

/** @type {Record<string, Uint8Array>} decoded once, as a route would hold a file it serves */
export const files = Object.fromEntries(
	Object.entries(input.files).map(([name, base64]) => [name, Buffer.from(base64, 'base64')])
);
