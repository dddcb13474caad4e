// Bytes on the wire for a phone's cold load: the page's HTML and every script and stylesheet it
// pulls in, each fetched as a browser would (accepting gzip and brotli), counted as sent —
// compressed bodies, not what they inflate to. Response headers are counted too.
import { request } from 'node:http';
import { BROWSER_HEADERS } from './wrk.js';

/**
 * @param {string} url
 * @param {Record<string, string>} headers
 * @returns {Promise<{ status: number, bodyBytes: number, headerBytes: number, encoding: string | null, link: string | null, body: Buffer }>}
 */
export function rawGet(url, headers) {
	return new Promise((resolve, reject) => {
		const req = request(
			url,
			{ headers: { ...BROWSER_HEADERS, ...headers }, agent: false },
			(res) => {
				/** @type {Buffer[]} */
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('end', () => {
					const body = Buffer.concat(chunks);
					// The status line and each header line as they crossed the wire.
					let headerBytes = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n\r\n`.length;
					for (let i = 0; i < res.rawHeaders.length; i += 2) {
						headerBytes += `${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}\r\n`.length;
					}
					const encoding = res.headers['content-encoding'] ?? null;
					const link = res.headers.link;
					resolve({
						status: res.statusCode ?? 0,
						bodyBytes: body.length,
						headerBytes,
						encoding,
						link: Array.isArray(link) ? link.join(', ') : (link ?? null),
						body
					});
				});
				res.on('error', reject);
			}
		);
		req.on('error', reject);
		req.end();
	});
}

/** @param {Buffer} body @param {string | null} encoding */
async function inflate(body, encoding) {
	const zlib = await import('node:zlib');
	if (encoding === 'br') return zlib.brotliDecompressSync(body).toString('utf8');
	if (encoding === 'gzip') return zlib.gunzipSync(body).toString('utf8');
	if (encoding === 'deflate') return zlib.inflateSync(body).toString('utf8');
	return body.toString('utf8');
}

/**
 * The scripts and stylesheets a `Link` header preloads (SvelteKit names a page's modules there:
 * its route's nodes and their chunks).
 * @param {string | null} header
 * @param {string} base
 */
export function linkedAssets(header, base) {
	/** @type {string[]} */
	const found = [];
	for (const m of (header ?? '').matchAll(/<([^>]+)>([^,]*)/g)) {
		const params = m[2] ?? '';
		const script = /\brel="?modulepreload"?/.test(params);
		const style = /\brel="?preload"?/.test(params) && /\bas="?style"?/.test(params);
		if (script || style) found.push(new URL(/** @type {string} */ (m[1]), base).href);
	}
	return found;
}

/**
 * The scripts and stylesheets an HTML page or a script asks for (relative to `base`). Of a
 * script, only its static imports: what it imports on demand (another route's page) a cold load
 * of this page does not fetch.
 * @param {string} text
 * @param {string} base
 * @param {'html' | 'js'} kind
 */
export function assetsOf(text, base, kind) {
	/** @type {string[]} */
	const found = [];
	const add = (/** @type {string} */ u) => found.push(new URL(u, base).href);
	if (kind === 'html') {
		for (const m of text.matchAll(/<link\b[^>]*>/gi)) {
			const rel = /\brel="([^"]+)"/.exec(m[0])?.[1];
			const href = /\bhref="([^"]+)"/.exec(m[0])?.[1];
			if (href && (rel === 'stylesheet' || rel === 'modulepreload')) add(href);
		}
		// Both quotes: the start script is imported with double quotes, and (with server-side route
		// resolution) the page's own nodes with single ones, with no modulepreload link for them.
		for (const m of text.matchAll(/\bimport\(\s*["']([^"']+\.js)["']\s*\)/g))
			add(/** @type {string} */ (m[1]));
		for (const m of text.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/gi))
			add(/** @type {string} */ (m[1]));
	} else {
		for (const m of text.matchAll(
			/(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+\.(?:js|css))["']/g
		)) {
			add(/** @type {string} */ (m[1]));
		}
	}
	return found;
}

/**
 * @typedef {{ html: number, js: number, css: number, headers: number, total: number, files: number, htmlEncoding: string | null }} ColdLoad
 */

/**
 * A cold load of `path`: nothing cached, every asset fetched once.
 * @param {string} origin
 * @param {string} path
 * @param {string | null} cookie
 * @returns {Promise<ColdLoad>}
 */
export async function coldLoad(origin, path, cookie) {
	const page = await rawGet(origin + path, cookie ? { Cookie: cookie } : {});
	if (page.status !== 200) throw new Error(`cold load of ${path}: HTTP ${page.status}`);
	const out = {
		html: page.bodyBytes,
		js: 0,
		css: 0,
		headers: page.headerBytes,
		total: 0,
		files: 1,
		htmlEncoding: page.encoding
	};
	const seen = new Set();
	const queue = [
		...linkedAssets(page.link, origin + path),
		...assetsOf(await inflate(page.body, page.encoding), origin + path, 'html')
	];
	while (queue.length > 0) {
		const url = /** @type {string} */ (queue.shift());
		if (seen.has(url) || !url.startsWith(origin)) continue;
		seen.add(url);
		const asset = await rawGet(url, { Accept: '*/*' });
		if (asset.status !== 200) throw new Error(`cold load of ${path}: ${url} HTTP ${asset.status}`);
		out.files++;
		out.headers += asset.headerBytes;
		if (url.endsWith('.css')) out.css += asset.bodyBytes;
		else {
			out.js += asset.bodyBytes;
			queue.push(...assetsOf(await inflate(asset.body, asset.encoding), url, 'js'));
		}
	}
	out.total = out.html + out.js + out.css + out.headers;
	return out;
}
