import { createHash } from 'node:crypto';
import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/**
 * SvelteKit's route announcer is the one element with an inline style attribute. Rather than
 * allow inline styles, the CSP allows exactly this attribute value, by hash (kit 2.70's
 * write_root.js; a kit upgrade that changes it shows as a CSP report in the browser console).
 */
const ANNOUNCER_STYLE =
	'position: absolute; left: 0; top: 0; clip: rect(0 0 0 0); clip-path: inset(50%); overflow: hidden; white-space: nowrap; width: 1px; height: 1px';
const announcerHash = /** @type {`sha256-${string}`} */ (
	`sha256-${createHash('sha256').update(ANNOUNCER_STYLE).digest('base64')}`
);

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	// Runes mode for every component of ours (libraries decide their own): a component left in
	// legacy mode pulls Svelte's legacy lifecycle into every page's JavaScript.
	compilerOptions: {
		runes: ({ filename }) => (filename.split(/[/\\]/).includes('node_modules') ? undefined : true)
	},
	kit: {
		adapter: adapter(),
		// Replaced by src/lib/server/http/csrf.ts, which understands the `Origin: null` that the
		// required `Referrer-Policy: no-referrer` makes browsers send on our own form posts.
		csrf: { trustedOrigins: ['*'] },
		csp: {
			mode: 'auto',
			directives: {
				'default-src': ['self'],
				'script-src': ['self'],
				'style-src': ['self'],
				'style-src-attr': ['unsafe-hashes', announcerHash],
				'img-src': ['self', 'data:'],
				'font-src': ['self'],
				'connect-src': ['self'],
				'form-action': ['self'],
				'object-src': ['none'],
				'base-uri': ['none'],
				'frame-ancestors': ['none']
			}
		}
	}
};

export default config;
