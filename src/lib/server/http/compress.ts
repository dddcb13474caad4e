import { gzipSync } from 'node:zlib';
import type { Handle } from '@sveltejs/kit';

/**
 * adapter-node serves the built scripts and styles precompressed but sends rendered pages as they
 * are; the terms page is 22 KB of HTML that gzip brings to 5.5. Behind a proxy that compresses,
 * this does nothing: the proxy asks with no Accept-Encoding, or finds the answer encoded already.
 *
 * gzip, level 6, on the event loop, because on pages this size it costs least (measured on a 6 KB
 * page, CPU per page): gzip 0.15 ms; brotli at quality 4 0.26 ms for 3% fewer bytes (the same on
 * the terms page), and the thread-pool versions of either 0.4 ms, their hand-offs costing more
 * than the compression.
 */

/** Below this, an encoded body saves less than its headers cost. */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml))/;

/** Whether the client's Accept-Encoding takes gzip (by name or `*`, with a q above 0). */
export function acceptsGzip(header: string | null): boolean {
	if (!header) return false;
	const weights = new Map<string, number>();
	for (const part of header.split(',')) {
		const [name, ...params] = part.trim().toLowerCase().split(';');
		const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
		weights.set(name!.trim(), q === undefined ? 1 : Number(q));
	}
	return (weights.get('gzip') ?? weights.get('*') ?? 0) > 0;
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
	const accepted = acceptsGzip(event.request.headers.get('accept-encoding'));
	if (!accepted || event.request.method === 'HEAD' || !(length >= MIN_BYTES)) return response;

	const body = gzipSync(Buffer.from(await response.arrayBuffer()), { level: 6 });
	const headers = new Headers(response.headers);
	headers.set('content-encoding', 'gzip');
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
