import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { openMemoryDatabase, type Db } from '../db';
import { createSandbox } from '.';

export interface SandboxServer {
	/** e.g. `http://127.0.0.1:41234/sandbox` (no trailing slash). */
	baseUrl: string;
	db: Db;
	/** The key of the SSN digests it keeps (see ssn.ts). */
	ssnKey: Buffer;
	close(): Promise<void>;
}

/**
 * A real HTTP sandbox for contract tests: a `node:http` server on 127.0.0.1 at a random port,
 * over a fresh, seeded, in-memory database. Close it in `afterAll`.
 */
export async function startSandboxServer(
	opts: { authHeader?: string; authValue?: string } = {}
): Promise<SandboxServer> {
	const database = await openMemoryDatabase();
	const ssnKey = randomBytes(32);
	const sandbox = createSandbox({ db: database.db, basePath: '/sandbox', ssnKey, ...opts });
	await sandbox.seed();

	const server = createServer((req, res) => {
		void serve(sandbox.handle, req, res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;

	return {
		baseUrl: `http://127.0.0.1:${port}/sandbox`,
		db: database.db,
		ssnKey,
		async close() {
			// Hung fault responses would otherwise hold the server open.
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
			await database.close();
		}
	};
}

async function serve(
	handle: (request: Request) => Promise<Response>,
	req: IncomingMessage,
	res: ServerResponse
): Promise<void> {
	// Aborted when the client goes away, so a hung fault lets go.
	const controller = new AbortController();
	res.on('close', () => {
		if (!res.writableFinished) controller.abort();
	});
	try {
		const response = await handle(toRequest(req, controller.signal));
		if (controller.signal.aborted) return;
		res.statusCode = response.status;
		response.headers.forEach((value, name) => res.setHeader(name, value));
		res.end(Buffer.from(await response.arrayBuffer()));
	} catch {
		if (!res.headersSent) res.statusCode = 500;
		res.end();
	}
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
	const headers = new Headers();
	for (const [name, value] of Object.entries(req.headers)) {
		if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
		else if (value !== undefined) headers.set(name, value);
	}
	const method = req.method ?? 'GET';
	const hasBody = method !== 'GET' && method !== 'HEAD';
	return new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
		method,
		headers,
		signal,
		body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
		// Required by undici for a streamed body.
		...(hasBody ? { duplex: 'half' } : {})
	} as RequestInit);
}
