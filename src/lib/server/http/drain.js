// Plain JavaScript, so that scripts/start.js (and the tests' server) can use it on the server the
// build starts, before and without the app.

/**
 * Reads and throws away what is left of a request's body once its answer is sent.
 *
 * SvelteKit 2's adapter-node reads a body through a stream that stops the socket after its
 * first chunks (`req.pause()`) and starts it again only when the app reads on. An answer given
 * without reading a large body (a 308 to the path without its trailing slash, an unknown
 * action's 404, a 415 or 413) leaves the socket stopped, with the rest of the body in it: the
 * next request on that kept-alive connection is never read, and the client waits until a
 * timeout. Node drains an unread body by itself only when nothing ever listened for its data,
 * and SvelteKit's stream did. Fixed upstream for SvelteKit 3 (sveltejs/kit#16170, for #15526
 * and #14916); 2.70 is the last 2.x and has no fix, so this does what that fix does: once the
 * answer is finished, or its connection closed, the app's listener for the body's data goes
 * and the rest of the body is read and dropped. Its `end` and `error` listeners stay, so the
 * body's stream still ends.
 *
 * @param {import('node:http').Server} server adapter-node's (`server.server` from build/index.js)
 */
export function drainUnreadBodies(server) {
	server.prependListener('request', (req, res) => {
		const drain = () => {
			if (req.complete || req.destroyed) return;
			req.removeAllListeners('data');
			req.resume();
		};
		res.once('finish', drain);
		res.once('close', drain);
	});
}
