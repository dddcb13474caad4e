import { connect } from 'node:net';

/**
 * Writes `requests` (raw HTTP/1.1, each whole) one after another on one connection, and gives
 * back what came back on it: once `until` holds for it, or after `waitMs`, or when the connection
 * closes. For a request whose answer must not hold up the next one on the same connection
 * (http/drain.js): the unit test's server and the end-to-end tests' portal.
 */
export function pipelined(
	port: number,
	requests: string[],
	until: (received: string) => boolean,
	waitMs: number
): Promise<string> {
	return new Promise((resolve) => {
		let received = '';
		const socket = connect(port, '127.0.0.1', () => {
			for (const r of requests) socket.write(r);
		});
		const finish = () => {
			clearTimeout(timer);
			socket.destroy();
			resolve(received);
		};
		const timer = setTimeout(finish, waitMs);
		socket.on('data', (d: Buffer) => {
			received += d.toString('latin1');
			if (until(received)) finish();
		});
		socket.on('error', finish);
		socket.on('close', finish);
	});
}
