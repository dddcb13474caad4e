import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailProblem, probeMailServer } from './probe.js';
import { freePort, selfSignedCertificate, startSmtpServer, type SmtpTestServer } from './test-smtp';

describe('the start-up summary’s word on SMTP_URL', () => {
	let smtp: SmtpTestServer;
	beforeAll(async () => {
		smtp = await startSmtpServer();
	});
	afterAll(() => smtp.close());

	it('says a server answers there, without the user or password of the URL', async () => {
		expect(await probeMailServer(smtp.url)).toBe(`${smtp.url}  (answers)`);
	});

	it('says when it refuses the login, and names neither the user nor the password', async () => {
		const said = await probeMailServer(`smtp://mailer:s3cret@127.0.0.1:${smtp.port}`);
		expect(said).toBe(
			`smtp://127.0.0.1:${smtp.port}  (REFUSED THE LOGIN: EAUTH; check SMTP_URL's user and password)`
		);
	});

	it('says the login was accepted only where the server took it, and when it offers none', async () => {
		const taking = await startSmtpServer(undefined, undefined, { login: 'accept' });
		const offering = await startSmtpServer(undefined, undefined, { login: 'none' });
		try {
			expect(await probeMailServer(`smtp://mailer:s3cret@127.0.0.1:${taking.port}`)).toBe(
				`smtp://127.0.0.1:${taking.port}  (answers, login accepted)`
			);
			expect(await probeMailServer(`smtp://mailer:s3cret@127.0.0.1:${offering.port}`)).toBe(
				`smtp://127.0.0.1:${offering.port}  (answers, but offers no login: mail goes without SMTP_URL's user and password)`
			);
		} finally {
			await taking.close();
			await offering.close();
		}
	});

	it('names nothing of a URL whose password a / ? or # cut short, and says to encode it', async () => {
		for (const url of [
			`smtp://user:12/pw@127.0.0.1:${smtp.port}`,
			`smtp://user:p@zz#qx9@127.0.0.1:${smtp.port}`
		]) {
			expect(await probeMailServer(url, 1000)).toBe(
				'SMTP_URL  (NOT READ AS MEANT: its password seems to hold a / ? or # that must be percent-encoded: / as %2F, ? as %3F, # as %23)'
			);
		}
		// Of a URL read as meant, the scheme, host and port only.
		expect(await probeMailServer(`${smtp.url}/x?y=z#w`)).toBe(`${smtp.url}  (answers)`);
	});

	it('says when nothing answers, by the socket’s code', async () => {
		const port = await freePort();
		expect(await probeMailServer(`smtp://127.0.0.1:${port}`, 1000)).toBe(
			`smtp://127.0.0.1:${port}  (NOT ANSWERING: ECONNREFUSED; nothing listens at that port: is the mail server running, and are SMTP_URL's host and port right?)`
		);
	});

	it('says a plain SMTP server asked for TLS from the first byte answers, but not with TLS', async () => {
		const said = await probeMailServer(`smtps://127.0.0.1:${smtp.port}`, 1000);
		expect(said).toMatch(
			/^smtps:\/\/127\.0\.0\.1:\d+ {2}\(ANSWERS, BUT NOT WITH TLS: ERR_SSL_(WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG); smtps:\/\/ is for TLS from the first byte, usually at port 465; for a server that takes STARTTLS, usually at port 587 or 25, use smtp:\/\/\)$/
		);
	});
});

describe('the start-up summary’s word on a mail server that speaks TLS', () => {
	const certificate = selfSignedCertificate();
	let implicit: SmtpTestServer;
	let starttls: SmtpTestServer;
	let silent: Server;
	beforeAll(async () => {
		implicit = await startSmtpServer(undefined, { ...certificate, secure: true });
		const expired = selfSignedCertificate({ expired: true });
		starttls = await startSmtpServer(undefined, { ...expired, secure: false });
		silent = createServer(() => {});
		await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
	});
	afterAll(async () => {
		await implicit.close();
		await starttls.close();
		silent.close();
	});

	it('says smtp:// at a server that speaks only TLS should be smtps://', async () => {
		expect(await probeMailServer(`smtp://127.0.0.1:${implicit.port}`, 1000)).toBe(
			`smtp://127.0.0.1:${implicit.port}  (ANSWERS, BUT ONLY WITH TLS: ETIMEDOUT; it speaks TLS from the first byte, so use smtps://; smtp:// is for plain SMTP and STARTTLS, usually at port 587 or 25)`
		);
	});

	it('tells a server that says nothing from one that speaks TLS', async () => {
		const { port } = silent.address() as { port: number };
		expect(await probeMailServer(`smtp://127.0.0.1:${port}`, 500)).toBe(
			`smtp://127.0.0.1:${port}  (NO GREETING: ETIMEDOUT; the connection was taken, but no SMTP greeting came within 0.5 s: is it a mail server that listens at that port?)`
		);
	});

	it('names a certificate this machine does not trust, or that has expired, by its code', async () => {
		expect(await probeMailServer(implicit.url, 1000)).toBe(
			`${implicit.url}  (CERTIFICATE REFUSED: DEPTH_ZERO_SELF_SIGNED_CERT; the server shows a self-signed certificate, which this machine does not trust: give it one from a trusted CA, or add its CA to NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the portal's environment)`
		);
		// Over STARTTLS, which nodemailer takes wherever the server offers it.
		expect(await probeMailServer(starttls.url, 1000)).toBe(
			`${starttls.url}  (CERTIFICATE REFUSED: CERT_HAS_EXPIRED; the server shows a certificate that has expired: renew it at the mail server)`
		);
	});

	it('says what to check for the codes no test server here gives', () => {
		const at = { host: 'mail.example.org', timeoutMs: 5000 };
		const said = (err: object) => mailProblem(err, at);
		expect(said({ code: 'EDNS', originalCode: 'ENOTFOUND' })).toBe(
			"NOT ANSWERING: ENOTFOUND; the host mail.example.org in SMTP_URL is not known to this machine's DNS"
		);
		expect(said({ code: 'EDNS', originalCode: 'EAI_AGAIN' })).toMatch(
			/^NOT ANSWERING: EAI_AGAIN; the host mail\.example\.org in SMTP_URL could not be looked up/
		);
		expect(said({ code: 'ETIMEDOUT', timeoutType: 'CONNECT_TIMEOUT' })).toBe(
			'NOT ANSWERING: ETIMEDOUT; no connection within 5 s: a firewall, or the wrong host or port?'
		);
		expect(said({ code: 'ESOCKET', originalCode: 'ERR_TLS_CERT_ALTNAME_INVALID' })).toBe(
			'CERTIFICATE REFUSED: ERR_TLS_CERT_ALTNAME_INVALID; the server shows a certificate for another name: use the host name its certificate names in SMTP_URL'
		);
		expect(said({ code: 'ESOCKET', originalCode: 'SELF_SIGNED_CERT_IN_CHAIN' })).toMatch(
			/^CERTIFICATE REFUSED: SELF_SIGNED_CERT_IN_CHAIN; .* NODE_EXTRA_CA_CERTS=/
		);
		// One nodemailer has no words of ours for still says its code.
		expect(said({ code: 'ETIMEDOUT', timeoutType: 'UPGRADE_TIMEOUT' })).toMatch(
			/^STARTTLS FAILED: ETIMEDOUT; the server took STARTTLS, but its TLS handshake did not end/
		);
		expect(said({ code: 'EWHATEVER' })).toBe('NOT ANSWERING: EWHATEVER; check SMTP_URL');
		expect(said(new Error('no code'))).toBe('NOT ANSWERING; check SMTP_URL');
	});
});
