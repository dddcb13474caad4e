// Plain JavaScript, so that scripts/start.js can use it on the server the build starts.
import nodemailer from 'nodemailer';

/**
 * The start-up summary's word on SMTP_URL: its address without user or password, and whether a
 * mail server answers there and takes the login (nodemailer's verify: connect, greeting,
 * STARTTLS where offered or asked for, AUTH), so that a wrong host or password shows at start
 * rather than first as a message waiting in the outbox. Said by nodemailer's codes only: its
 * messages can quote the server's reply.
 *
 * @param {string} url SMTP_URL, already checked by the portal's configuration
 * @param {number} [timeoutMs] for each of connecting, the greeting and every reply
 * @returns {Promise<string>}
 */
export async function probeMailServer(url, timeoutMs = 5000) {
	let shown = 'SMTP_URL';
	let login = false;
	try {
		const u = new URL(url);
		login = u.username !== '';
		u.username = '';
		u.password = '';
		shown = u.href.replace(/\/$/, '');
	} catch {
		/* the configuration refuses it before this runs */
	}
	const transport = nodemailer.createTransport({
		url,
		connectionTimeout: timeoutMs,
		greetingTimeout: timeoutMs,
		socketTimeout: timeoutMs
	});
	try {
		await transport.verify();
		return `${shown}  (answers${login ? ', login accepted' : ''})`;
	} catch (err) {
		const e = /** @type {{ code?: unknown, originalCode?: unknown }} */ (err);
		// A socket's own error (ECONNREFUSED) is kept as originalCode under nodemailer's ESOCKET.
		const code = e?.code === 'ESOCKET' && e.originalCode ? e.originalCode : e?.code;
		if (code === 'EAUTH') {
			return `${shown}  (REFUSED THE LOGIN; check SMTP_URL's user and password)`;
		}
		const said = typeof code === 'string' ? `: ${code}` : '';
		return `${shown}  (NOT ANSWERING${said}; check SMTP_URL)`;
	} finally {
		transport.close();
	}
}
