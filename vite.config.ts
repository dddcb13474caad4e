import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	plugins: [sveltekit()],
	build: {
		// The merchant pages' shared components and helpers in one chunk: a phone's cold load of a
		// signing step fetched a dozen files of a few hundred bytes each, each with its own headers
		// and its own compression (tests/bench/NOTES.md, section 5). The error page stays out: no
		// page loads it until something fails. Kit's own default layout (the signing steps' layout
		// has data but no component) goes in with them, where it was a file of 110 bytes. So do the
		// root layout and the global stylesheet, which every page loads: their CSS was a second
		// stylesheet beside the chunk's on every page, 0.6 KB of a cold load with its headers
		// (section 15). A handed-over tablet's idle watch (sign/tablet/) stays out: only a tablet
		// loads it, never a merchant's own phone.
		rolldownOptions: {
			// Rolldown's note that kit's own writeBundle and closeBundle (the server build and the
			// adapter) take most of the build's time: a dozen lines in every `npm start` that a
			// user can do nothing about.
			checks: { bundlerTimings: false },
			output: {
				codeSplitting: {
					groups: [
						{
							name: 'merchant',
							test: /src[\\/](app\.css|lib[\\/](components[\\/](?!ErrorPage)|forms|time|tel\.ts)|routes[\\/](\+layout|sign[\\/][^\\/]+)\.svelte|runtime[\\/]components[\\/]svelte-5[\\/]layout\.svelte)/
						}
					]
				}
			}
		}
	},
	// The portal's client reaches the embedded sandbox over HTTP on 127.0.0.1:<port>
	// (src/lib/server/config): the dev server must listen exactly there.
	server: { host: '127.0.0.1', port: 5173, strictPort: true },
	ssr: {
		// PGlite loads its WebAssembly and data files relative to its own module, and jsdom
		// reads files of its own at run time: both must stay in node_modules, not be bundled.
		external: ['@electric-sql/pglite', 'jsdom', 'dompurify']
	},
	optimizeDeps: {
		exclude: ['@electric-sql/pglite']
	},
	test: {
		include: ['src/**/*.spec.ts', 'tests/bench/**/*.spec.ts'],
		environment: 'node',
		testTimeout: 20_000,
		hookTimeout: 30_000,
		expect: { requireAssertions: true }
	}
});
