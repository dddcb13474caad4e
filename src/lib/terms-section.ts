/**
 * A section of the acceptance language on a page the server draws (the terms, and the review
 * while signing). Its HTML is in the page already, so the page's data does not carry it a second
 * time: the transport hook (src/hooks.ts) sends the key and the title, and the browser reads the
 * HTML back from the section the page drew, which hydration then adopts as it is. Without this,
 * the agreement went out twice, a seventh of the terms page's cold load on a phone
 * (tests/bench/NOTES.md, section 22).
 *
 * Only for a page the server draws: data fetched on its own (a navigation in the browser) has no
 * drawn page to read from, and carries each section as a plain object, HTML and all.
 */
export class DrawnSection {
	constructor(
		readonly key: string,
		readonly title: string,
		readonly html: string
	) {}
}

/**
 * The HTML the server drew for a section (TermsSections.svelte: the body follows the heading
 * `h-<key>`), less the two empty comments Svelte marks an `{@html}` with. Should the page have
 * been changed under it before the scripts came (an extension rewriting it), words that say to
 * reload: Svelte would draw the page again from the data, and an empty string would leave the
 * section blank with nothing said.
 */
export function drawnHtml(key: string): string {
	const body = document.getElementById(`h-${key}`)?.nextElementSibling;
	const html = (body?.innerHTML ?? '').replace(/^<!--[^]*?-->/, '').replace(/<!---->$/, '');
	return html.trim()
		? html
		: '<p>This part of the agreement could not be shown: reload the page to read it.</p>';
}
