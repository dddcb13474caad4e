// Runs the built portal for the end-to-end tests in a fresh data folder, on the embedded
// sandbox and PGlite, and keeps everything it prints in .e2e/server.log so the tests can check
// that no SSN ever reached the output.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { answerClientErrors } from '../../src/lib/server/http/client-error.js';
import { drainUnreadBodies } from '../../src/lib/server/http/drain.js';

// E2E_DIR and E2E_SMTP_URL let a test start a second server of its own (tests/mail.e2e.ts: one
// that sends through an SMTP server the test runs); the shared server keeps the dev mailbox.
const dir = resolve(process.env.E2E_DIR || '.e2e');
rmSync(dir, { recursive: true, force: true });
mkdirSync(resolve(dir, 'data'), { recursive: true });
const log = resolve(dir, 'server.log');

for (const stream of [process.stdout, process.stderr]) {
	const write = /** @type {(...args: unknown[]) => boolean} */ (stream.write.bind(stream));
	stream.write = /** @type {typeof stream.write} */ (
		(/** @type {string | Uint8Array} */ chunk, /** @type {unknown[]} */ ...rest) => {
			appendFileSync(log, chunk);
			return write(chunk, ...rest);
		}
	);
}

const port = process.env.E2E_PORT || '4319';

Object.assign(process.env, {
	PORT: port,
	HOST: '127.0.0.1',
	ORIGIN: `http://127.0.0.1:${port}`,
	DATA_DIR: resolve(dir, 'data'),
	OPERATOR_API_KEY: 'e2e-operator-key-0123456789abcdef',
	DELIVERY_INTERVAL_SECONDS: '1',
	// The portal's default: on two cores shared with a build, the sandbox's first answer after a
	// start once took 4.3 s, and a shorter limit failed a test with a 502 that was only the load.
	// (No test makes the sandbox hang; a slow service is tested in the unit tests.)
	ONBOARDING_TIMEOUT_MS: '10000',
	RATE_LIMIT_LINK_OPEN: '100000',
	RATE_LIMIT_LINK_MISS: '100000',
	RATE_LIMIT_OPERATOR_AUTH: '100000',
	// A test of the limit itself starts a server of its own with a small one.
	RATE_LIMIT_IDENTITY: process.env.E2E_RATE_LIMIT_IDENTITY || '100000',
	RATE_LIMIT_DECISION: '100000',
	// Never an SMTP server from the developer's environment: mail stays in the dev mailbox.
	SMTP_URL: process.env.E2E_SMTP_URL || '',
	MAIL_RETRY_SECONDS: '1',
	// The console tests watch it refresh; every test signs in from 127.0.0.1, so the per-address
	// sign-in limit (unit-tested) must not lock the run out.
	CONSOLE_REFRESH_SECONDS: '2',
	REP_SIGNIN_MAX_FAILURES_PER_ADDRESS: '100000',
	// The tests change the sandbox's acceptance language and expect the next session to show it
	// at once. The cache is tested in src/lib/server/signing/terms.spec.ts and by npm run bench.
	ONBOARDING_CACHE_SECONDS: '0',
	// Playwright's request clients keep idle connections without heeding the server's
	// `Keep-Alive: timeout=5` (microsoft/playwright#42698): a client left idle while another works
	// (a rep's beside a merchant's) can send on a connection the server is closing that instant,
	// and fails with ECONNRESET before the portal sees the request. Browsers resend such requests
	// by themselves. Ten minutes is longer than any test (and so any of its clients) lasts, so the
	// server never closes an idle connection under a test (adapter-node reads it, in seconds).
	KEEP_ALIVE_TIMEOUT: '600'
});

// Reps beside the demo rep (seeded by the portal itself), added as an operator adds them: with
// `npm run reps` on the same data folder, before the portal opens it (see tests/support/reps.ts).
const REPS = [
	{
		office: '1207',
		repNo: '47',
		email: 'riley.lockwood@office1207.example',
		name: 'Riley Lockwood',
		phone: '(217) 555-0147'
	},
	{
		office: '3300',
		repNo: '5',
		email: 'alex.moreno@office3300.example',
		name: 'Alex Moreno',
		phone: '(312) 555-0105'
	},
	{
		office: '3300',
		repNo: '6',
		email: 'jordan.blake@office3300.example',
		name: 'Jordan Blake',
		phone: '(312) 555-0106'
	},
	// The one whose password stays the operator's (temporary): the first sign-in test chooses one.
	{
		office: '3300',
		repNo: '7',
		email: 'casey.nguyen@office3300.example',
		name: 'Casey Nguyen',
		phone: '(312) 555-0107',
		temporary: true
	}
];
for (const { office, repNo, email, name, phone, temporary } of REPS) {
	const r = spawnSync(
		process.execPath,
		[
			resolve('node_modules/tsx/dist/cli.mjs'),
			'src/lib/server/reps/main.ts',
			'add',
			...['--office', office, '--rep-no', repNo, '--email', email, '--name', name],
			...['--phone', phone],
			// As if each rep had typed their own at the operator's terminal: theirs to keep.
			...(temporary ? [] : ['--own-password'])
		],
		{ input: 'e2e rep pass phrase, long enough\n', encoding: 'utf8' }
	);
	if (r.status !== 0) throw new Error(`adding rep ${email} failed: ${r.stderr}`);
}

// E2E_BUILD_DIR runs another copy of the build (e.g. a snapshot taken so that a rebuild during
// the run cannot pull files from under the server); the default is the project's build/.
const { server } = await import(resolve(process.env.E2E_BUILD_DIR || 'build', 'index.js'));
// As scripts/start.js does: a body the app answered without reading is drained (drain.js).
drainUnreadBodies(server.server);
answerClientErrors(server.server);
