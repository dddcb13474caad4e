import { generateKeyPairSync } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import forge from 'node-forge';
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

/** A key and a self-signed certificate for 127.0.0.1, PEM; `expired`: since yesterday. */
export function selfSignedCertificate({ expired = false } = {}): { key: string; cert: string } {
	const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
	const key = pair.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
	const cert = forge.pki.createCertificate();
	cert.publicKey = forge.pki.publicKeyFromPem(
		pair.publicKey.export({ type: 'spki', format: 'pem' }).toString()
	);
	cert.serialNumber = '01';
	const day = 24 * 3600 * 1000;
	cert.validity.notBefore = new Date(Date.now() - 2 * day);
	cert.validity.notAfter = new Date(Date.now() + (expired ? -1 : 1) * day);
	const name = [{ name: 'commonName', value: '127.0.0.1' }];
	cert.setSubject(name);
	cert.setIssuer(name);
	cert.setExtensions([{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }]);
	cert.sign(forge.pki.privateKeyFromPem(key), forge.md.sha256.create());
	return { key, cert: forge.pki.certificateToPem(cert) };
}

/** TLS for the test server: from the first byte (`secure`, smtps://), or by STARTTLS. */
export interface SmtpTestTls {
	key: string;
	cert: string;
	secure: boolean;
}

/**
 * A real SMTP server (the `smtp-server` package) on a free loopback port, for tests: it keeps
 * every message it accepts, parsed by `mailparser`, and can be told to refuse, or be stopped and
 * started again on the same port (the portal's SMTP_URL stays the same). Plain SMTP unless `tls`.
 */
export async function startSmtpServer(
	port?: number,
	tls?: SmtpTestTls,
	{ login = 'refuse' }: { login?: 'refuse' | 'accept' | 'none' } = {}
) {
	const captured: CapturedMail[] = [];
	let behaviour: SmtpBehaviour = 'accept';
	const rejected = { count: 0 };
	const make = () => {
		const server = new SMTPServer({
			authOptional: true,
			disabledCommands: [
				...(tls && !tls.secure ? [] : ['STARTTLS']),
				...(login === 'none' ? ['AUTH'] : [])
			],
			// smtp-server refuses every login unless told otherwise; over plain SMTP it offers one
			// only when allowed to.
			...(login === 'accept'
				? {
						allowInsecureAuth: true,
						onAuth(
							_auth: unknown,
							_session: unknown,
							callback: (e: null, r: { user: string }) => void
						) {
							callback(null, { user: 'mailer' });
						}
					}
				: {}),
			...(tls ? { key: tls.key, cert: tls.cert, secure: tls.secure } : {}),
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
		// A client that gives up a TLS handshake (as a probe does) is an 'error' of the server's,
		// which ends the process while nothing listens for it.
		if (tls) server.on('error', () => {});
		return server;
	};
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
		url: `${tls?.secure ? 'smtps' : 'smtp'}://127.0.0.1:${chosen}`,
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
