import { createServer, type AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** What the test server does with the next messages. */
export type SmtpBehaviour =
	| 'accept'
	/** 451 on RCPT: "try again later". */
	| 'busy'
	/** 550 on RCPT: "no such mailbox". */
	| 'refuse';

export interface CapturedMail {
	envelopeTo: string[];
	parsed: ParsedMail;
}

/** A loopback port nobody listens on right now. */
export async function freePort(): Promise<number> {
	const probe = createServer();
	await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
	const { port } = probe.address() as AddressInfo;
	await new Promise<void>((r) => probe.close(() => r()));
	return port;
}

/**
 * A real SMTP server (the `smtp-server` package) on a free loopback port, for tests: it keeps
 * every message it accepts, parsed by `mailparser`, and can be told to refuse, or be stopped and
 * started again on the same port (the portal's SMTP_URL stays the same).
 */
export async function startSmtpServer(port?: number) {
	const captured: CapturedMail[] = [];
	let behaviour: SmtpBehaviour = 'accept';
	const rejected = { count: 0 };
	const make = () =>
		new SMTPServer({
			authOptional: true,
			disabledCommands: ['STARTTLS'],
			logger: false,
			onRcptTo(address, _session, callback) {
				if (behaviour === 'accept') return callback();
				rejected.count++;
				const err = new Error(
					behaviour === 'busy' ? 'Try again later' : 'No such mailbox'
				) as Error & {
					responseCode: number;
				};
				err.responseCode = behaviour === 'busy' ? 451 : 550;
				callback(err);
			},
			onData(stream, session, callback) {
				simpleParser(stream)
					.then((parsed) => {
						captured.push({
							envelopeTo: (session.envelope.rcptTo || []).map((r) => r.address),
							parsed
						});
						callback();
					})
					.catch((err: Error) => callback(err));
			}
		});
	const listen = async (server: SMTPServer, p: number) =>
		new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(p, '127.0.0.1', () => resolve());
		});
	const chosen = port ?? (await freePort());
	let server: SMTPServer | undefined = make();
	await listen(server, chosen);
	const stop = async () => {
		const s = server;
		server = undefined;
		if (s) await new Promise<void>((r) => s.close(() => r()));
	};
	return {
		port: chosen,
		url: `smtp://127.0.0.1:${chosen}`,
		captured,
		rejected,
		set(next: SmtpBehaviour) {
			behaviour = next;
		},
		/** Goes away: connections are refused until `start`. */
		stop,
		async start() {
			if (server) return;
			server = make();
			await listen(server, chosen);
		},
		close: stop
	};
}

export type SmtpTestServer = Awaited<ReturnType<typeof startSmtpServer>>;
