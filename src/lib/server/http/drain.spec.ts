import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequest, setResponse } from '@sveltejs/kit/node';
import { afterEach, describe, expect, it } from 'vitest';
import { pipelined } from '$lib/server/testing/pipelined';
import { drainUnreadBodies } from './drain.js';

/**
 * A server that takes requests the way adapter-node does (SvelteKit's own getRequest and
 * setResponse) and answers a POST without reading its body, as SvelteKit does for a path it
 * redirects or an action it doesn't have.
 */
async function serve(drain: boolean): Promise<{ server: Server; port: number; seen: string[] }> {
	const seen: string[] = [];
	const server = createServer((req, res) => {
		void (async () => {
			const request = await getRequest({ request: req, base: 'http://127.0.0.1' });
			seen.push(`${request.method} ${new URL(request.url).pathname}`);
			await setResponse(
				res,
				request.method === 'POST'
					? new Response(null, { status: 308, headers: { location: '/form' } })
					: new Response('next one', { status: 200 })
			);
		})();
	});
	if (drain) drainUnreadBodies(server);
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	return { server, port: (server.address() as AddressInfo).port, seen };
}

/**
 * A POST with a body of `size` bytes, and a GET after it on the same connection; what came back
 * on that connection within `waitMs`.
 */
const postThenGet = (port: number, size: number, waitMs: number) =>
	pipelined(
		port,
		[
			'POST /form/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n' +
				`Content-Length: ${size}\r\n\r\n${'x'.repeat(size)}`,
			'GET /next HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'
		],
		(got) => got.includes('next one'),
		waitMs
	);

const servers: Server[] = [];
afterEach(async () => {
	for (const s of servers.splice(0)) {
		s.closeAllConnections();
		await new Promise((r) => s.close(r));
	}
});

describe('a body the app did not read', () => {
	it('is read and dropped once the answer is sent, so the next request on the connection is answered', async () => {
		const { server, port, seen } = await serve(true);
		servers.push(server);
		for (const size of [10, 200_000, 600_000]) {
			const got = await postThenGet(port, size, 5_000);
			expect(got, `a ${size}-byte body`).toMatch(/^HTTP\/1\.1 308 /);
			expect(got, `after a ${size}-byte body`).toContain('HTTP/1.1 200 OK');
			expect(got).toContain('next one');
		}
		expect(seen).toEqual(Array(3).fill(['POST /form/', 'GET /next']).flat());
	});

	it('left unread, stops the connection: the request after it is never answered (why the drain is there)', async () => {
		const { server, port, seen } = await serve(false);
		servers.push(server);
		const got = await postThenGet(port, 200_000, 1_500);
		expect(got).toMatch(/^HTTP\/1\.1 308 /);
		expect(got).not.toContain('next one');
		expect(seen).toEqual(['POST /form/']);
	});
});
