import { redirect } from '@sveltejs/kit';

/**
 * Browsers ask for /favicon.ico where a page names no icon: a signed copy or certificate opened
 * directly is a PDF, not our HTML with its `<link rel="icon">`. They follow a redirect to the
 * SVG the pages name, where a 404 left an error in the console for every PDF viewed.
 */
export function GET() {
	redirect(308, '/favicon.svg');
}
