import type { Config, DOMPurify } from 'dompurify';

/**
 * The acceptance language is legal text: headings, paragraphs, lists, tables, emphasis and
 * links are all it needs. Anything else is refused rather than reasoned about.
 */
export const ALLOWED_TAGS = [
	'h1',
	'h2',
	'h3',
	'h4',
	'h5',
	'h6',
	'p',
	'br',
	'hr',
	'ul',
	'ol',
	'li',
	'dl',
	'dt',
	'dd',
	'strong',
	'b',
	'em',
	'i',
	'u',
	's',
	'small',
	'sub',
	'sup',
	'blockquote',
	'pre',
	'code',
	'span',
	'div',
	'section',
	'table',
	'caption',
	'thead',
	'tbody',
	'tfoot',
	'tr',
	'th',
	'td',
	'a'
];

const TABLE_ATTRS = ['colspan', 'rowspan', 'scope'];

/**
 * DOMPurify runs every attribute that is not "URI-safe" through ALLOWED_URI_REGEXP, so with
 * our strict regexp `colspan="2"` would be dropped. The table attributes are declared URI-safe
 * and their values checked by `checkAttribute` below instead.
 */
export const CONFIG: Config = {
	ALLOWED_TAGS,
	ALLOWED_ATTR: ['href', ...TABLE_ATTRS],
	ADD_URI_SAFE_ATTR: TABLE_ATTRS,
	// Belt and braces: none of these is in the allow-list, but naming them keeps them out even if
	// someone later widens ALLOWED_TAGS carelessly.
	FORBID_TAGS: [
		'script',
		'style',
		'iframe',
		'object',
		'embed',
		'form',
		'input',
		'base',
		'meta',
		'link',
		'img',
		'svg',
		'math',
		'template'
	],
	// No `style` (CSS can overlay the page or exfiltrate), no class (our own CSS would apply),
	// no id/name (DOM clobbering of the page's globals and form fields).
	FORBID_ATTR: ['style', 'class', 'id', 'name'],
	ALLOW_DATA_ATTR: false,
	ALLOW_ARIA_ATTR: false,
	ALLOW_UNKNOWN_PROTOCOLS: false,
	// Only web, mail and phone links and in-page fragments: no javascript:, vbscript:, data:,
	// and no relative URLs that would point into the portal itself.
	ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto|tel):|#)/i,
	KEEP_CONTENT: true,
	RETURN_DOM_FRAGMENT: true
};

const SCOPES = new Set(['row', 'col', 'rowgroup', 'colgroup']);

/** Registers the hooks once on a fresh DOMPurify instance. */
export function installHooks(purify: DOMPurify): void {
	purify.addHook('uponSanitizeAttribute', (_node, data) => {
		const value = data.attrValue.trim().toLowerCase();
		if (data.attrName === 'colspan' || data.attrName === 'rowspan') {
			data.keepAttr = /^\d{1,3}$/.test(value);
		} else if (data.attrName === 'scope') {
			data.keepAttr = SCOPES.has(value);
		}
	});
	purify.addHook('afterSanitizeAttributes', (node) => {
		if (node.nodeName !== 'A') return;
		const href = node.getAttribute('href');
		if (!href) return;
		// The signer must not lose the signing page, and the linked site must get no handle on
		// it (window.opener) nor learn its URL (Referer). mailto:/tel: and in-page links open
		// in place: a blank tab for a mail client helps nobody.
		node.setAttribute('rel', 'noopener noreferrer');
		if (/^\s*https?:/i.test(href)) node.setAttribute('target', '_blank');
	});
}
