import { causes } from '$lib/server/log/causes';
import { parse as parsePg } from 'pg-connection-string';
import { unencodedUserinfo } from '$lib/server/config/userinfo.js';

/**
 * Why a PostgreSQL server could not be opened, in our words, for the errors an operator meets on
 * a first start: the server not running, a wrong host, password or database. Built from the
 * error's code and the URL's host, port, user and database, never from the driver's message
 * (which is safe here, but is not elsewhere) and never with the password.
 */
export function databaseProblem(err: unknown, url: string | undefined): string | null {
	if (!url) return null;
	const code = problemCode(err);
	if (!code) return null;
	const unencoded = unencodedUserinfo(url);
	const hint = unencoded ? ` ${PERCENT_ENCODE}` : '';
	// Read as pg reads it (a socket's directory in ?host=, which URL refuses, and a lone %), but
	// without the files its TLS settings name: parsing reads them, and one missing would leave
	// nothing to say here (pg says so itself when it connects).
	let where: ReturnType<typeof parsePg>;
	try {
		where = parsePg(url.replace(/([?&])(sslcert|sslkey|sslrootcert)=[^&#]*/g, '$1'));
	} catch {
		if (code !== 'ERR_INVALID_URL') return null;
		const why = unencoded === 'cut' ? `its password ${CUT_SHORT}` : 'check its host and port';
		return `DATABASE_URL cannot be read as a URL: ${why} (${code}).${hint}`;
	}
	const host = where.host || 'localhost';
	const hostPort = serverAddress(where);
	const server = `the PostgreSQL server at ${hostPort}`;
	const user = where.user || 'the default user';
	const database = where.database || 'the default database';
	const words: Record<string, string> = {
		ECONNREFUSED: `nothing answers at ${hostPort}: is PostgreSQL running there, and are DATABASE_URL's host and port right?`,
		// A socket's directory with no socket for the port in it.
		ENOENT: `nothing answers at ${hostPort}${host.startsWith('/') ? ` (port ${where.port || 5432})` : ''}: is PostgreSQL running on this machine, and is that its socket directory (unix_socket_directories)?`,
		ENOTFOUND: `the host ${host} in DATABASE_URL is not known to this machine's DNS`,
		EAI_AGAIN: `the host ${host} in DATABASE_URL could not be looked up just now`,
		ETIMEDOUT: `${server} did not answer in time: a firewall, or the wrong host?`,
		EHOSTUNREACH: `${server} cannot be reached from this machine`,
		'28P01': `${server} refused the password of ${user}: check DATABASE_URL's password`,
		'28000': `${server} does not let ${user} connect from here (pg_hba.conf), or the user does not exist`,
		'3D000': `${server} has no database named ${database}: create it, or correct DATABASE_URL`,
		'42501': `${user} may not do what the portal needs in ${database} (it creates its own tables)`,
		'53300': `${server} has no connection to spare (too many clients)`,
		'57P03': `${server} is starting up or shutting down: try again in a moment`,
		NO_SSL: `${server} does not offer TLS, which DATABASE_URL's sslmode asks for: turn TLS on at the server, or take sslmode out of DATABASE_URL on a network you trust`,
		DEPTH_ZERO_SELF_SIGNED_CERT: `${server} shows a self-signed certificate, which DATABASE_URL's sslmode does not trust: give its CA with sslrootcert=/path/to/ca.pem in DATABASE_URL`,
		SELF_SIGNED_CERT_IN_CHAIN: `${server} shows a certificate from a CA this machine does not trust: give the CA with sslrootcert=/path/to/ca.pem in DATABASE_URL`,
		UNABLE_TO_VERIFY_LEAF_SIGNATURE: `${server} shows a certificate this machine cannot verify: give its CA with sslrootcert=/path/to/ca.pem in DATABASE_URL`,
		ERR_TLS_CERT_ALTNAME_INVALID: `${server} shows a certificate for another name: use the host name its certificate names in DATABASE_URL`,
		CERT_HAS_EXPIRED: `${server} shows a certificate that has expired`,
		NO_PASSWORD: `${server} asks ${user} for a password, and DATABASE_URL gives none`,
		CLOSED: `${server} closed the connection without answering: is it PostgreSQL that listens at that port, and not another service?`,
		TIMEOUT: `${server} did not answer within ${CONNECT_TIMEOUT_SECONDS} s: a firewall that drops the connection, or the wrong host or port?`
	};
	const text = words[code];
	if (!text) return null;
	// Cut short, the host, port, user and database read from the URL may be pieces of the
	// password: none of them is named.
	if (unencoded === 'cut') {
		return `DATABASE_URL's password ${CUT_SHORT}, so what was read as its host, port or database is a piece of the password (${code}).${hint}`;
	}
	return `${text} (${code}).${hint}`;
}

/**
 * Where DATABASE_URL's server is, as an operator is told: the socket in a directory (pg's
 * `?host=/dir`), or host:port, an IPv6 host in brackets; pg's defaults where the URL names none.
 */
export function serverAddress(where: { host?: string | null; port?: string | null }): string {
	const host = where.host || 'localhost';
	if (host.startsWith('/')) return `the socket in ${host}`;
	return `${host.includes(':') ? `[${host}]` : host}:${where.port || 5432}`;
}

const PERCENT_ENCODE =
	'A password with @ # / ? : or % in it must be percent-encoded in DATABASE_URL, e.g. @ as %40 and # as %23.';
const CUT_SHORT = "seems to hold a / ? or #, which ends a URL's host part early";

/** How long the pool waits for a connection (db/index.ts), as the words above say it. */
export const CONNECT_TIMEOUT_SECONDS = 10;

/**
 * pg's refusals and lost connections without a code, by their words (matched, never printed),
 * under codes of our own; the start's first statement goes through drizzle, which wraps them as
 * its error's cause. BROKEN has no words above: it comes after a start, never at one.
 */
const CODELESS: Record<string, string> = {
	'The server does not support SSL connections': 'NO_SSL',
	'SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string': 'NO_PASSWORD',
	'Connection terminated unexpectedly': 'CLOSED',
	'timeout expired': 'TIMEOUT',
	'Connection terminated due to connection timeout': 'TIMEOUT',
	'timeout exceeded when trying to connect': 'TIMEOUT',
	'Client has encountered a connection error and is not queryable': 'BROKEN'
};

/** The codes of `err` and of what it wraps, outermost first: the driver's own, or ours above. */
function* problemCodes(err: unknown): Generator<string> {
	for (const e of causes(err)) {
		if (!e || typeof e !== 'object') break;
		const { code, message } = e as { code?: unknown; message?: unknown };
		if (typeof code === 'string') yield code;
		else if (typeof message === 'string' && Object.hasOwn(CODELESS, message)) {
			yield CODELESS[message]!;
		}
	}
}

export function problemCode(err: unknown): string | null {
	for (const code of problemCodes(err)) return code;
	return null;
}

/** Codes of a database that is not there or not taking statements (not of a statement's fault). */
const UNAVAILABLE = new Set([
	'ECONNREFUSED',
	'ECONNRESET',
	'ENOTFOUND',
	'EAI_AGAIN',
	'ETIMEDOUT',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'EPIPE',
	'CLOSED', // ours, from pg's words above, as are the next two
	'TIMEOUT',
	'BROKEN',
	'53300', // too many connections
	'57P01', // admin shutdown
	'57P02', // crash shutdown
	'57P03', // cannot connect now (starting up, shutting down)
	'08000',
	'08001',
	'08003',
	'08004',
	'08006'
]);

/**
 * Whether `err` (or what it wraps: drizzle wraps the driver's error as its cause) says the
 * database could not be reached or dropped the connection, rather than that a statement failed:
 * what a page then tells its reader is that nothing was recorded and to try again shortly.
 */
export function databaseUnavailable(err: unknown): boolean {
	for (const code of problemCodes(err)) if (UNAVAILABLE.has(code)) return true;
	return false;
}
