import nodemailer from 'nodemailer';

export interface Envelope {
	from: string;
	to: string;
	replyTo: string | null;
	subject: string;
	text: string;
	html: string | null;
}

/** Bounds on one conversation with the SMTP server: a lease must outlive the slowest send. */
export const SMTP_TIMEOUTS = {
	connectionTimeout: 10_000,
	greetingTimeout: 10_000,
	socketTimeout: 30_000
};
export const SMTP_WORST_MS =
	SMTP_TIMEOUTS.connectionTimeout + SMTP_TIMEOUTS.greetingTimeout + SMTP_TIMEOUTS.socketTimeout;

export interface Sender {
	send(mail: Envelope): Promise<void>;
	close(): void;
}

/** One transport for a batch of messages (a connection per message: nothing pooled to leak). */
export function smtpSender(url: string): Sender {
	const transport = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
	return {
		async send(mail) {
			await transport.sendMail({
				from: mail.from,
				to: mail.to,
				replyTo: mail.replyTo ?? undefined,
				subject: mail.subject,
				text: mail.text,
				html: mail.html ?? undefined
			});
		},
		close: () => transport.close()
	};
}

/** Why a message is waiting, when the mail server could not be reached at all. */
export const UNREACHABLE = 'the mail server could not be reached';

export interface SendFailure {
	/** Worth trying again later (the server is down, busy, or said "try later"). */
	transient: boolean;
	/** Our own words: nodemailer's message can quote addresses and the server's reply. */
	reason: string;
	/** The error's class, e.g. `EENVELOPE 550`. */
	code: string;
}

/**
 * Reads what went wrong from nodemailer's `code` and the SMTP reply code only. A 5xx on the
 * envelope means this address will never be accepted; everything else (no connection, a 4xx,
 * a refused login that an operator may fix) is retried until the attempts run out.
 */
export function classifySendError(err: unknown): SendFailure {
	const e = (err ?? {}) as { code?: unknown; responseCode?: unknown };
	const code = typeof e.code === 'string' ? e.code : err instanceof Error ? err.name : 'unknown';
	const reply = typeof e.responseCode === 'number' ? e.responseCode : null;
	const tag = reply ? `${code} ${reply}` : code;
	if (reply && reply >= 500 && code === 'EENVELOPE') {
		return { transient: false, reason: 'the receiving server refused the address', code: tag };
	}
	if (reply && reply >= 500 && code === 'EMESSAGE') {
		return { transient: false, reason: 'the mail server refused the message', code: tag };
	}
	if (reply && reply >= 400 && reply < 500) {
		return { transient: true, reason: 'the mail server asked us to try again later', code: tag };
	}
	if (code === 'EAUTH') {
		return {
			transient: true,
			reason: 'the mail server refused our login (check SMTP_URL)',
			code: tag
		};
	}
	if (['ECONNECTION', 'ESOCKET', 'ETIMEDOUT', 'EDNS', 'ETLS', 'ECONNREFUSED'].includes(code)) {
		return { transient: true, reason: UNREACHABLE, code: tag };
	}
	return { transient: true, reason: 'the mail server did not take the message', code: tag };
}
