// Plain JavaScript, so that scripts/start.js (and the tests' server) can use it on the server the
// build starts, before and without the app (as drain.js).
import { STATUS_CODES } from 'node:http';

/** What a request Node cannot read is told, by the status Node gives it. */
const WORDS = {
	400: 'This request could not be read, so nothing was done. Check the address, and try again.',
	408: 'This request took too long to arrive, so nothing was done. Try again.',
	431: 'The address, or the cookies or other headers sent with it, are too long for this portal to read, so nothing was done. Check the address; if it is right, clear this site’s cookies and try again.'
};

/**
 * Node answers a request it cannot read (headers or an address over its size limit, a request
 * line that is not HTTP) before any app sees it, with a status and no body: the person who
 * followed a very long address got an empty page. This gives the same status with a line in our
 * words, as Node's own handler would otherwise (any listener replaces it): a connection reset
 * or one already closed is only closed, and a connection whose answer has begun is not written
 * into.
 *
 * @param {import('node:http').Server} server adapter-node's (`server.server` from build/index.js)
 */
export function answerClientErrors(server) {
	answerTrace(server);
	server.on('clientError', (err, socket) => {
		const code = /** @type {{ code?: string }} */ (err).code;
		const answering = /** @type {{ _httpMessage?: { headersSent?: boolean } }} */ (socket)
			._httpMessage?.headersSent;
		if (code === 'ECONNRESET' || !socket.writable || answering) {
			socket.destroy();
			return;
		}
		const status =
			code === 'HPE_HEADER_OVERFLOW' ? 431 : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
		const body = WORDS[status];
		socket.end(
			`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
				'Content-Type: text/plain; charset=utf-8\r\n' +
				`Content-Length: ${Buffer.byteLength(body)}\r\n` +
				'Connection: close\r\n\r\n' +
				body
		);
	});
}

/**
 * TRACE, which a Fetch `Request` refuses to carry (TRACK, which it refuses too, Node's parser
 * refuses first: clientError above; CONNECT goes to Node's 'connect', not here): adapter-node
 * cannot hand it to the app and answers a bare "Bad Request" of its own. Answered before it, in
 * our words: the portal answers it nowhere.
 *
 * @param {import('node:http').Server} server
 */
function answerTrace(server) {
	const handlers = server.listeners('request');
	server.removeAllListeners('request');
	server.on('request', (req, res) => {
		if (req.method === 'TRACE') {
			const body = 'TRACE is not accepted by this portal, so nothing was done.';
			res.writeHead(405, {
				allow: 'GET, HEAD, POST',
				'content-type': 'text/plain; charset=utf-8',
				'content-length': Buffer.byteLength(body)
			});
			res.end(body);
			return;
		}
		for (const handler of handlers) handler.call(server, req, res);
	});
}
