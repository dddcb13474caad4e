import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Handle } from '@sveltejs/kit';

/**
 * adapter-node serves the built scripts and styles precompressed but sends rendered pages as they
 * are; the terms page is 22 KB of HTML that brotli brings to 6. Behind a proxy that compresses,
 * this does nothing: the proxy asks with no Accept-Encoding, or finds the answer encoded already.
 */

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Below this, an encoded body saves less than its headers cost. */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml))/;
// Brotli's quality 4 brings the terms page to 5.5 KB in under a millisecond; quality 11 (the
// default, meant for files compressed once) to 4.4 KB in 58 ms. Either way the work runs on
// libuv's thread pool, off the event loop.
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
const GZIP = { level: 6 };

export type Encoding = 'br' | 'gzip';

/** The client's preferred encoding of the two we make, from its Accept-Encoding. */
export function chooseEncoding(header: string | null): Encoding | null {
	if (!header) return null;
	const accepted = new Map<string, number>();
	for (const part of header.split(',')) {
		const [name, ...params] = part.trim().toLowerCase().split(';');
		const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
		accepted.set(name!.trim(), q === undefined ? 1 : Number(q));
	}
	const weight = (name: Encoding) => accepted.get(name) ?? accepted.get('*') ?? 0;
	if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
	return weight('gzip') > 0 ? 'gzip' : null;
}

/**
 * Compresses what the app rendered (pages, form-action and data answers) for clients that accept
 * it. Only whole bodies (with a Content-Length): a streamed page is left to stream.
 */
export const compress: Handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	const type = response.headers.get('content-type') ?? '';
	const length = Number(response.headers.get('content-length') ?? NaN);
	if (!response.body || !COMPRESSIBLE.test(type) || response.headers.has('content-encoding')) {
		return response;
	}
	// The answer depends on the header whether or not this one is encoded.
	vary(response.headers);
	const encoding = chooseEncoding(event.request.headers.get('accept-encoding'));
	if (!encoding || event.request.method === 'HEAD' || !(length >= MIN_BYTES)) return response;

	const raw = Buffer.from(await response.arrayBuffer());
	const body = encoding === 'br' ? await brotli(raw, BROTLI) : await gz(raw, GZIP);
	const headers = new Headers(response.headers);
	headers.set('content-encoding', encoding);
	headers.set('content-length', String(body.byteLength));
	// A strong validator names one exact representation; the encoded one is another.
	const etag = headers.get('etag');
	if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`);
	return new Response(body as BodyInit, {
		status: response.status,
		statusText: response.statusText,
		headers
	});
};

function vary(headers: Headers) {
	try {
		const current = headers.get('vary');
		if (!current) headers.set('vary', 'Accept-Encoding');
		else if (!/\baccept-encoding\b/i.test(current) && current.trim() !== '*') {
			headers.set('vary', `${current}, Accept-Encoding`);
		}
	} catch {
		/* immutable headers (a fetched response passed through): leave them */
	}
}
