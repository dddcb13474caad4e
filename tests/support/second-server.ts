// A second portal beside the shared one, for what the shared one is not set up for (an SMTP
// server of the test's own, mail off): the same built app through tests/support/server.js, in a
// data folder of its own under .e2e/.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import {
	freePort,
	startSmtpServer,
	type SmtpTestServer
} from '../../src/lib/server/mail/test-smtp';
import { E2E } from './env';

export interface SecondServer {
	origin: string;
	stop: () => Promise<void>;
}

export async function startSecondServer(
	name: string,
	env: Record<string, string>
): Promise<SecondServer> {
	const port = await freePort();
	const origin = `http://127.0.0.1:${port}`;
	const server = spawn(process.execPath, ['tests/support/server.js'], {
		env: { ...process.env, ...env, E2E_PORT: String(port), E2E_DIR: resolve(E2E.dir, name) },
		stdio: 'ignore'
	});
	await expect
		.poll(
			async () => {
				try {
					return (await fetch(`${origin}/healthz`)).ok;
				} catch {
					return false;
				}
			},
			{ timeout: 90_000, intervals: [500] }
		)
		.toBe(true);
	return {
		origin,
		stop: async () => {
			if (server.exitCode !== null) return;
			const exited = new Promise((r) => server.once('exit', r));
			server.kill('SIGTERM');
			await exited;
		}
	};
}

/**
 * For a `test.describe`: a second portal that sends its mail through an SMTP server of the test's
 * own, both started before the describe's tests and stopped after them. Read `smtp` and `origin`
 * inside the tests (they are set once the servers are up).
 */
export function smtpPortal(name: string, env: Record<string, string> = {}) {
	const portal = {} as { smtp: SmtpTestServer; origin: string };
	let server: SecondServer | undefined;
	test.beforeAll(async () => {
		test.setTimeout(120_000);
		portal.smtp = await startSmtpServer();
		server = await startSecondServer(name, { E2E_SMTP_URL: portal.smtp.url, ...env });
		portal.origin = server.origin;
	});
	test.afterAll(async () => {
		await server?.stop();
		await portal.smtp?.close();
	});
	return portal;
}
