import { gunzipSync } from 'node:zlib';
import type { RequestEvent, ResolveOptions } from '@sveltejs/kit';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, compress } from './compress';

const page = '<!doctype html><p>' + 'Merchant processing agreement. '.repeat(200) + '</p>';

async function through(
	response: Response,
	request: { acceptEncoding?: string; method?: string } = {}
): Promise<Response> {
	const headers = new Headers();
	if (request.acceptEncoding !== undefined) headers.set('accept-encoding', request.acceptEncoding);
	const event = {
		request: new Request('http://portal.test/sign/terms', {
			method: request.method ?? 'GET',
			headers
		})
	} as unknown as RequestEvent;
	return compress({
		event,
		resolve: async (_e: RequestEvent, _o?: ResolveOptions) => response
	});
}

const html = (body = page, extra: Record<string, string> = {}) =>
	new Response(body, {
		headers: {
			'content-type': 'text/html',
			'content-length': String(Buffer.byteLength(body)),
			etag: '"abc"',
			...extra
		}
	});

describe('acceptsGzip', () => {
	it('reads Accept-Encoding as browsers and proxies write it, q=0 included', () => {
		expect(acceptsGzip('gzip, deflate, br')).toBe(true);
		expect(acceptsGzip('br;q=1.0, gzip;q=0.8, *;q=0.1')).toBe(true);
		expect(acceptsGzip('*')).toBe(true);
		expect(acceptsGzip('br')).toBe(false);
		expect(acceptsGzip('identity')).toBe(false);
		expect(acceptsGzip('gzip;q=0')).toBe(false);
		expect(acceptsGzip('*;q=0')).toBe(false);
		expect(acceptsGzip(null)).toBe(false);
	});
});

describe('compress', () => {
	it('sends a page gzip-encoded to a browser, with the length, Vary and a weak validator', async () => {
		const res = await through(html(), { acceptEncoding: 'gzip, deflate, br' });
		const body = Buffer.from(await res.arrayBuffer());
		expect(res.headers.get('content-encoding')).toBe('gzip');
		expect(res.headers.get('content-length')).toBe(String(body.length));
		expect(res.headers.get('vary')).toBe('Accept-Encoding');
		expect(res.headers.get('etag')).toBe('W/"abc"');
		expect(body.length).toBeLessThan(page.length / 10);
		expect(gunzipSync(body).toString()).toBe(page);
	});

	it('keeps the status and every cookie', async () => {
		const original = html(page, { 'x-kept': 'yes' });
		const res = await through(
			new Response(original.body, {
				status: 400,
				headers: [...original.headers, ['set-cookie', 'a=1; Path=/'], ['set-cookie', 'b=2; Path=/']]
			}),
			{ acceptEncoding: 'gzip' }
		);
		expect(res.status).toBe(400);
		expect(res.headers.get('content-encoding')).toBe('gzip');
		expect(res.headers.get('x-kept')).toBe('yes');
		expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
		expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(page);
	});

	it('leaves alone what it should not touch, saying where the answer varies', async () => {
		const plain = await through(html(), {});
		expect(plain.headers.get('content-encoding')).toBeNull();
		expect(plain.headers.get('vary')).toBe('Accept-Encoding');
		expect(await plain.text()).toBe(page);

		const small = await through(html('<p>ok</p>'), { acceptEncoding: 'gzip' });
		expect(small.headers.get('content-encoding')).toBeNull();

		const head = await through(html(), { acceptEncoding: 'gzip', method: 'HEAD' });
		expect(head.headers.get('content-encoding')).toBeNull();

		const pdf = new Response(new Uint8Array(4096), {
			headers: { 'content-type': 'application/pdf', 'content-length': '4096' }
		});
		const sent = await through(pdf, { acceptEncoding: 'gzip' });
		expect(sent.headers.get('content-encoding')).toBeNull();
		expect(sent.headers.get('vary')).toBeNull();

		// A streamed page (no length) keeps streaming.
		const streamed = await through(
			new Response(page, { headers: { 'content-type': 'text/html' } }),
			{ acceptEncoding: 'gzip' }
		);
		expect(streamed.headers.get('content-encoding')).toBeNull();
		expect(await streamed.text()).toBe(page);
	});

	it('adds to an existing Vary rather than replacing it', async () => {
		const res = await through(html(page, { vary: 'Origin' }), { acceptEncoding: 'gzip' });
		expect(res.headers.get('vary')).toBe('Origin, Accept-Encoding');
	});
});
