// The portal's own TypeScript modules, loaded through Vite with the project's config (so `$lib`
// resolves): the application fixture the signers are made from, and the sanitizer to time.
import { createServer } from 'vite';

/**
 * @param {string} root the project's folder
 * @param {(mod: (id: string) => Promise<Record<string, any>>) => Promise<T>} use
 * @returns {Promise<T>}
 * @template T
 */
export async function withPortalModules(root, use) {
	const server = await createServer({
		root,
		logLevel: 'error',
		appType: 'custom',
		server: { middlewareMode: true, hmr: false, ws: false }
	});
	try {
		return await use((id) => server.ssrLoadModule(id));
	} finally {
		await server.close();
	}
}

/**
 * Times the sanitizer on the largest acceptance section of the sandbox: the first call of the
 * process (which builds the DOM window), a cold call (a section never seen: DOMPurify runs), and
 * a cached call (the section seen before) through each cache the portal has.
 * @param {(id: string) => Promise<Record<string, any>>} mod
 */
export async function timeSanitizer(mod) {
	const texts = await mod('/src/lib/server/sandbox/acceptance/text.ts');
	const sanitize = {
		...(await mod('/src/lib/server/sanitize/index.ts')),
		...(await mod('/src/lib/server/sanitize/sanitize.ts'))
	};
	const { openMemoryDatabase } = await mod('/src/lib/server/db/index.ts');
	const sections = Object.values(texts).filter((t) => typeof t === 'string' && t.includes('<'));
	const largest = sections.reduce((a, b) => (b.length > a.length ? b : a), '');

	/** @param {() => unknown} fn */
	const once = async (fn) => {
		const t = performance.now();
		await fn();
		return performance.now() - t;
	};
	/** @param {number} n @param {(i: number) => unknown} fn */
	const many = async (n, fn) => {
		const times = [];
		for (let i = 0; i < n; i++) times.push(await once(() => fn(i)));
		times.sort((a, b) => a - b);
		return {
			medianMs: times[Math.floor(n / 2)] ?? NaN,
			p90Ms: times[Math.floor(n * 0.9)] ?? NaN,
			n
		};
	};

	const firstMs = await once(() => sanitize.sanitizeHtml(largest));
	// Each call a text never seen before, as a new version of the terms would be.
	const cold = await many(40, (i) => sanitize.sanitizeHtml(`${largest}<!-- ${i} -->`));
	const database = await openMemoryDatabase();
	try {
		await sanitize.sanitizeAllCached(database.db, [largest]);
		const table = await many(200, () => sanitize.sanitizeAllCached(database.db, [largest]));
		/** @type {Record<string, any>} */
		const out = { sectionChars: largest.length, firstCallMs: firstMs, cold, cachedInTable: table };
		return out;
	} finally {
		await database.close();
	}
}
