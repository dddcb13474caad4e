import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeMailServer } from './probe.js';
import { freePort, startSmtpServer, type SmtpTestServer } from './test-smtp';

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
			`smtp://127.0.0.1:${smtp.port}  (REFUSED THE LOGIN; check SMTP_URL's user and password)`
		);
	});

	it('says when nothing answers, by the socket’s code', async () => {
		const port = await freePort();
		expect(await probeMailServer(`smtp://127.0.0.1:${port}`, 1000)).toBe(
			`smtp://127.0.0.1:${port}  (NOT ANSWERING: ECONNREFUSED; check SMTP_URL)`
		);
	});
});
