// The framework's floor: a bare SvelteKit app built by the benchmark with the portal's own
// toolchain and kit settings (adapter-node, the same CSP, the same app.html), and nothing else:
// no hooks, no database, no upstream service.
import adapter from '@sveltejs/adapter-node';
import portal from '../../../svelte.config.js';

const work = process.env.BENCH_WORK_DIR ?? '../.work';

/** @type {import('@sveltejs/kit').Config} */
const config = {
	...portal,
	kit: {
		...portal.kit,
		adapter: adapter({ out: `${work}/floor-build` }),
		outDir: `${work}/floor-kit`,
		files: { appTemplate: '../../../src/app.html', routes: 'routes', lib: 'lib' }
	}
};

export default config;
