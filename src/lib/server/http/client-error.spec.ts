import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { pipelined } from '$lib/server/testing/pipelined';
import { answerClientErrors } from './client-error.js';

const servers: Server[] = [];
afterEach(async () => {
	for (const s of servers.splice(0)) {
		s.closeAllConnections();
		await new Promise((r) => s.close(r));
	}
});

async function serve(): Promise<number> {
	const server = createServer((_req, res) => res.end('fine'));
	answerClientErrors(server);
	servers.push(server);
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	return (server.address() as AddressInfo).port;
}

const send = (port: number, raw: string) =>
	pipelined(port, [raw], (got) => got.includes('\r\n\r\n') && /try again\.$/.test(got), 3000);

describe('a request Node cannot read', () => {
	it('is told why in words, with the status Node gives it', async () => {
		const port = await serve();
		const long = await send(port, `GET /s/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
		expect(long).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
		expect(long).toContain('Content-Type: text/plain; charset=utf-8');
		expect(long).toMatch(/The address, or the cookies or other headers sent with it, are too long/);
		const cookie = await send(
			port,
			`GET / HTTP/1.1\r\nHost: x\r\nCookie: a=${'b'.repeat(20_000)}\r\n\r\n`
		);
		expect(cookie).toMatch(/^HTTP\/1\.1 431 /);
		const garbled = await send(port, 'NOT HTTP AT ALL\r\n\r\n');
		expect(garbled).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
		expect(garbled).toContain('This request could not be read, so nothing was done.');
		// A request it can read is the app's, as before.
		expect(
			await pipelined(port, ['GET / HTTP/1.1\r\nHost: x\r\n\r\n'], (g) => g.includes('fine'), 3000)
		).toContain('fine');
	});
});

describe('a method a fetch Request cannot carry', () => {
	it('is refused in words before the app, which could not be handed it', async () => {
		const port = await serve();
		const got = await pipelined(
			port,
			['TRACE /api/v1/offices/1207 HTTP/1.1\r\nHost: x\r\n\r\n'],
			(g) => g.includes('nothing was done.'),
			3000
		);
		expect(got).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/i);
		expect(got).toMatch(/allow: GET, HEAD, POST/i);
		expect(got).toContain('TRACE is not accepted by this portal, so nothing was done.');
		expect(got).not.toContain('fine');
	});
});
