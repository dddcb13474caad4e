import { createHash } from 'node:crypto';
import createDOMPurify, { type DOMPurify, type WindowLike } from 'dompurify';
import { JSDOM } from 'jsdom';
import { CONFIG, installHooks } from './policy';
import type { Sanitized } from './version';

export type { Sanitized } from './version';

// One window and one DOMPurify for the process: creating a JSDOM costs milliseconds and the
// instance holds no per-request state (the config is passed on every call).
let purify: DOMPurify | undefined;

function instance(): DOMPurify {
	if (!purify) {
		const { window } = new JSDOM('');
		purify = createDOMPurify(window as unknown as WindowLike);
		installHooks(purify);
	}
	return purify;
}

/**
 * The portal puts every section under its own h2, so the section's headings must start at h3 to
 * keep the page's outline (and a screen reader's heading navigation) whole: the section's
 * highest heading level becomes h3 and the others keep their distance from it, down to h6.
 */
function demoteHeadings(root: DocumentFragment): void {
	const headings = Array.from(root.querySelectorAll('h1, h2, h3, h4, h5, h6'));
	if (headings.length === 0) return;
	const top = Math.min(...headings.map((h) => Number(h.localName.slice(1))));
	for (const heading of headings) {
		const level = Math.min(6, Number(heading.localName.slice(1)) - top + 3);
		if (`h${level}` === heading.localName) continue;
		const replacement = heading.ownerDocument.createElement(`h${level}`);
		replacement.append(...Array.from(heading.childNodes));
		heading.replaceWith(replacement);
	}
}

/**
 * A wide table scrolls sideways on a phone (the page's CSS); a scrolling region must be
 * reachable by keyboard, so each table takes focus. Added after sanitizing: the allow-list
 * itself never admits tabindex from the service's HTML.
 */
function focusableTables(root: DocumentFragment): void {
	for (const table of Array.from(root.querySelectorAll('table')))
		table.setAttribute('tabindex', '0');
}

/** Sanitizes one untrusted HTML section with the portal's strict allow-list. */
export function sanitizeHtml(raw: string): Sanitized {
	// Parsed as the page is (standards mode, thanks to the doctype): without it the parser runs in
	// quirks mode, where `<p><table>` nests, and the markup would mutate when the browser reads it.
	// null when the input leaves no body to sanitize (a <frameset> document): nothing is shown.
	const fragment = instance().sanitize(
		`<!doctype html>${raw}`,
		CONFIG
	) as unknown as DocumentFragment | null;
	let html = '';
	if (fragment) {
		demoteHeadings(fragment);
		focusableTables(fragment);
		const box = fragment.ownerDocument.createElement('div');
		box.append(fragment);
		html = box.innerHTML;
	}
	return { html, sha256: createHash('sha256').update(html, 'utf8').digest('hex') };
}
