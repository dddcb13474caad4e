import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a test server saw of one request. */
export interface SeenRequest {
	method: string;
	url: string;
	headers: IncomingMessage['headers'];
	body: string;
}

export type Handler = (
	req: SeenRequest,
	res: ServerResponse,
	count: number
) => void | Promise<void>;

/** A loopback HTTP server for the client tests; records every request it receives. */
export async function startTestServer(handler: Handler) {
	const seen: SeenRequest[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const entry = {
				method: req.method ?? '',
				url: req.url ?? '',
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8')
			};
			seen.push(entry);
			Promise.resolve(handler(entry, res, seen.length)).catch(() => res.destroy());
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		seen,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}

export function json(res: ServerResponse, status: number, body: unknown) {
	res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
	res.end(JSON.stringify(body));
}

export function text(res: ServerResponse, status: number, body: string) {
	res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
	res.end(body);
}
