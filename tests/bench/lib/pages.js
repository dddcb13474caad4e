// The pages under load: each merchant page, which signers it needs, and where its floor is.

/**
 * @typedef {import('./flow.js').Step} Step
 * @typedef {{
 *   key: string,
 *   label: string,
 *   kind: 'html' | 'pdf',
 *   signers?: Step,
 *   path?: (s: import('./flow.js').Signer) => string,
 *   cookie?: boolean,
 *   upstreamBudget?: boolean,
 *   note?: string
 * }} Page
 */

/** @type {Page[]} */
export const PAGES = [
	{
		key: 'link',
		label: 'link /s/<token>',
		kind: 'html',
		signers: 'terms',
		path: (s) => s.linkPath,
		cookie: false
	},
	{
		key: 'terms',
		label: '/sign/terms',
		kind: 'html',
		signers: 'terms',
		path: () => '/sign/terms',
		cookie: true
	},
	{
		key: 'identity',
		label: '/sign/identity',
		kind: 'html',
		signers: 'identity',
		path: () => '/sign/identity',
		cookie: true
	},
	{
		key: 'sign',
		label: '/sign/sign',
		kind: 'html',
		signers: 'sign',
		path: () => '/sign/sign',
		cookie: true
	},
	{
		key: 'done',
		label: '/sign/done',
		kind: 'html',
		signers: 'done',
		path: () => '/sign/done',
		cookie: true
	},
	{
		key: 'signed-copy-pdf',
		label: 'done: signed-copy.pdf',
		kind: 'pdf',
		signers: 'done',
		path: () => '/sign/done/signed-copy.pdf',
		cookie: true
	},
	{
		key: 'certificate-pdf',
		label: 'done: certificate.pdf',
		kind: 'pdf',
		signers: 'done',
		path: () => '/sign/done/certificate.pdf',
		cookie: true
	},
	{
		// A rep's own page: each request takes the next of the signed-in reps' sessions. The list
		// comes from the office's shared copy, so a reload costs the service nothing.
		key: 'rep-list',
		label: 'rep console list /rep',
		kind: 'html',
		signers: 'rep',
		path: () => '/rep',
		cookie: true
	}
];

/** The floor page that stands for a portal page: the same HTML, or for a PDF the same bytes. */
export const floorPath = (/** @type {Page} */ page) =>
	page.kind === 'pdf' ? `/${page.key}/file` : `/${page.key}`;
