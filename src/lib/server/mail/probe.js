// Plain JavaScript, so that scripts/start.js can use it on the server the build starts.
import { connect } from 'node:tls';
import nodemailer from 'nodemailer';
import { unencodedUserinfo } from '../config/userinfo.js';

/**
 * The start-up summary's word on SMTP_URL: its address without user or password, and whether a
 * mail server answers there and takes the login (nodemailer's verify: connect, greeting,
 * STARTTLS where offered or asked for, AUTH), so that a wrong host or password shows at start
 * rather than first as a message waiting in the outbox. Said by nodemailer's codes only: its
 * messages can quote the server's reply.
 *
 * @param {string} url SMTP_URL, already checked by the portal's configuration
 * @param {number} [timeoutMs] for each of connecting, the greeting and every reply (a second more)
 * @returns {Promise<string>}
 */
export async function probeMailServer(url, timeoutMs = 5000) {
	/** @type {URL | undefined} */
	let where;
	try {
		where = new URL(url);
	} catch {
		/* the configuration refuses it before this runs */
	}
	// The scheme, host and port only. Not even those when the password seems to hold a / ? or # not
	// percent-encoded: what is read as the host, port or path is then a piece of it.
	const cut = unencodedUserinfo(url) === 'cut';
	const shown = where && !cut ? `${where.protocol}//${where.host}` : 'SMTP_URL';
	// Whether the server took the login, or offered none (verify then goes on without it, as
	// sending does). nodemailer says so only in its log, read here for that one event; the
	// entry's message, which names the user, is never kept.
	let loggedIn = false;
	const quiet = () => {};
	const logger = {
		trace: quiet,
		debug: quiet,
		/** @param {{ action?: unknown }} [entry] */
		info: (entry) => {
			if (entry?.action === 'authenticated') loggedIn = true;
		},
		warn: quiet,
		error: quiet,
		fatal: quiet
	};
	const transport = nodemailer.createTransport({
		url,
		logger,
		connectionTimeout: timeoutMs,
		greetingTimeout: timeoutMs,
		// A second after the greeting's: both run from the connection, and at a server that never
		// greets, the greeting's says which wait ran out (see mailProblem).
		socketTimeout: timeoutMs + 1000
	});
	try {
		await transport.verify();
		if (!where?.username) return `${shown}  (answers)`;
		return loggedIn
			? `${shown}  (answers, login accepted)`
			: `${shown}  (answers, but offers no login: mail goes without SMTP_URL's user and password)`;
	} catch (err) {
		if (cut) {
			return `${shown}  (NOT READ AS MEANT: its password seems to hold a / ? or # that must be percent-encoded: / as %2F, ? as %3F, # as %23)`;
		}
		const host = where?.hostname.replace(/^\[(.*)\]$/, '$1') ?? '';
		// A smtp:// address at a server that speaks TLS from the first byte waits for a greeting
		// the server never sends, as at one that says nothing: a TLS handshake tells them apart.
		const tls =
			/** @type {{ timeoutType?: unknown }} */ (err)?.timeoutType === 'GREETING_TIMEOUT' &&
			where?.protocol === 'smtp:' &&
			(await speaksTls(host, Number(where.port) || 587, timeoutMs));
		return `${shown}  (${mailProblem(err, { host, timeoutMs, tls })})`;
	} finally {
		transport.close();
	}
}

/**
 * Why nodemailer's verify failed, in our words, with the code an operator can search for: the
 * socket's own (ECONNREFUSED, ENOTFOUND, a certificate's), which nodemailer keeps as originalCode
 * under ESOCKET or EDNS, else nodemailer's; for its ETIMEDOUT, which wait ran out.
 *
 * @param {unknown} err what verify threw
 * @param {{ host: string, timeoutMs: number, tls?: boolean }} at SMTP_URL's host, the probe's
 *   timeout, and whether a TLS handshake succeeded where no greeting came
 * @returns {string}
 */
export function mailProblem(err, { host, timeoutMs, tls = false }) {
	const e = /** @type {{ code?: unknown, originalCode?: unknown, timeoutType?: unknown }} */ (
		err ?? {}
	);
	const own = typeof e.originalCode === 'string' ? e.originalCode : undefined;
	const code = (['ESOCKET', 'EDNS'].includes(String(e.code)) && own) || e.code;
	if (typeof code !== 'string') return 'NOT ANSWERING; check SMTP_URL';
	const within = `within ${timeoutMs / 1000} s`;
	const ca = "add its CA to NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the portal's environment";
	const untrustedCa = `the server shows a certificate from a CA this machine does not trust: ${ca}`;
	// What a TLS handshake meets at a server that does not speak TLS (OpenSSL's words for it).
	const notTls = [
		'ANSWERS, BUT NOT WITH TLS',
		'smtps:// is for TLS from the first byte, usually at port 465; for a server that takes STARTTLS, usually at port 587 or 25, use smtp://'
	];
	/** @type {Record<string, string[]>} */
	const words = {
		EAUTH: ['REFUSED THE LOGIN', "check SMTP_URL's user and password"],
		ECONNREFUSED: [
			'NOT ANSWERING',
			"nothing listens at that port: is the mail server running, and are SMTP_URL's host and port right?"
		],
		ENOTFOUND: ['NOT ANSWERING', `the host ${host} in SMTP_URL is not known to this machine's DNS`],
		EAI_AGAIN: ['NOT ANSWERING', `the host ${host} in SMTP_URL could not be looked up just now`],
		EDNS: ['NOT ANSWERING', `the host ${host} in SMTP_URL could not be looked up`],
		EHOSTUNREACH: ['NOT ANSWERING', `the host ${host} cannot be reached from this machine`],
		ENETUNREACH: ['NOT ANSWERING', `the host ${host} cannot be reached from this machine`],
		CONNECT_TIMEOUT: [
			'NOT ANSWERING',
			`no connection ${within}: a firewall, or the wrong host or port?`
		],
		GREETING_TIMEOUT: tls
			? [
					'ANSWERS, BUT ONLY WITH TLS',
					'it speaks TLS from the first byte, so use smtps://; smtp:// is for plain SMTP and STARTTLS, usually at port 587 or 25'
				]
			: [
					'NO GREETING',
					`the connection was taken, but no SMTP greeting came ${within}: is it a mail server that listens at that port?`
				],
		SOCKET_TIMEOUT: ['STOPPED ANSWERING', `no reply ${within}`],
		UPGRADE_TIMEOUT: [
			'STARTTLS FAILED',
			`the server took STARTTLS, but its TLS handshake did not end ${within}`
		],
		ECONNRESET: [
			'CONNECTION CUT',
			'the server ended the connection at once: is it a mail server that listens at that port?'
		],
		ECONNECTION: [
			'CONNECTION CUT',
			'the server closed the connection without a greeting: is it a mail server that listens at that port?'
		],
		EPROTOCOL: [
			'NOT A MAIL SERVER',
			'what answers there does not speak SMTP: is it another service that listens at that port?'
		],
		ETLS: [
			'STARTTLS FAILED',
			'the server did not take STARTTLS: is STARTTLS on at the mail server, or does it take TLS from the first byte, with smtps://?'
		],
		ERR_SSL_WRONG_VERSION_NUMBER: notTls,
		ERR_SSL_PACKET_LENGTH_TOO_LONG: notTls,
		DEPTH_ZERO_SELF_SIGNED_CERT: [
			'CERTIFICATE REFUSED',
			`the server shows a self-signed certificate, which this machine does not trust: give it one from a trusted CA, or ${ca}`
		],
		SELF_SIGNED_CERT_IN_CHAIN: ['CERTIFICATE REFUSED', untrustedCa],
		UNABLE_TO_GET_ISSUER_CERT_LOCALLY: ['CERTIFICATE REFUSED', untrustedCa],
		UNABLE_TO_VERIFY_LEAF_SIGNATURE: [
			'CERTIFICATE REFUSED',
			`the server shows a certificate this machine cannot verify: is its chain complete at the server? Or ${ca}`
		],
		CERT_HAS_EXPIRED: [
			'CERTIFICATE REFUSED',
			'the server shows a certificate that has expired: renew it at the mail server'
		],
		ERR_TLS_CERT_ALTNAME_INVALID: [
			'CERTIFICATE REFUSED',
			'the server shows a certificate for another name: use the host name its certificate names in SMTP_URL'
		]
	};
	const [head, then] = words[code === 'ETIMEDOUT' ? String(e.timeoutType) : code] ?? [
		'NOT ANSWERING',
		'check SMTP_URL'
	];
	return `${head}: ${code}; ${then}`;
}

/**
 * Whether a TLS handshake succeeds at `host:port`. Nothing is sent over it and no certificate is
 * checked: it only tells a server that speaks TLS from the first byte from one that says nothing.
 *
 * @param {string} host
 * @param {number} port
 * @param {number} timeoutMs
 * @returns {Promise<boolean>}
 */
function speaksTls(host, port, timeoutMs) {
	return new Promise((resolve) => {
		const socket = connect({ host, port, rejectUnauthorized: false, timeout: timeoutMs });
		/** @param {boolean} answer */
		const done = (answer) => {
			socket.destroy();
			resolve(answer);
		};
		socket.once('secureConnect', () => done(true));
		socket.once('error', () => done(false));
		socket.once('timeout', () => done(false));
	});
}
