import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '$lib/server/db';
import { lockDataDir } from '$lib/server/db/lock';
import { listReps } from './accounts';
import { parseCommand, runCli } from './cli';
import { runRepsCli } from './cli-testing';
import { signIn } from './signin';
import { TEST_DATABASE_URL } from '$lib/server/testing/postgres';
import { json, startTestServer } from '$lib/server/onboarding/test-server';

const PASSWORD = 'correct horse battery staple';
const dataDir = mkdtempSync(join(tmpdir(), 'portal-reps-cli-'));
const env = { DATA_DIR: dataDir };
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const reps = (args: string[], input?: string) => runRepsCli(args, { env, input });
const ADD = ['add', '--office', '1207', '--rep-no', '31', '--email', 'Sam@Example.com'];

describe('npm run reps (a child process on a temporary data folder)', { timeout: 180_000 }, () => {
	it('adds a rep with the password piped in, and lists them', async () => {
		const added = await reps(
			[...ADD, '--name', 'Sam Ortiz', '--phone', '(217) 555-0100'],
			PASSWORD + '\n'
		);
		expect(added.stderr).not.toContain('error');
		expect(added).toMatchObject({ code: 0 });
		// The first use of the folder says so, and that the portal's settings may name another.
		expect(added.stderr).toContain(
			`Database: none in ${dataDir} yet, so a new embedded one is made there (DATABASE_URL is not set). If the portal runs on PostgreSQL or on another DATA_DIR, this is not its database`
		);
		// Private, as the portal makes it at its start: it holds the reps' password hashes.
		for (const path of [dataDir, join(dataDir, 'pglite'), join(dataDir, 'pglite', 'PG_VERSION')]) {
			expect((statSync(path).mode & 0o777).toString(8), path).toBe(
				statSync(path).isDirectory() ? '700' : '600'
			);
		}
		expect(added.stdout).toBe(
			'Added Sam Ortiz <Sam@Example.com>, rep 31 of office 1207. The password is temporary: at their next sign-in they choose their own before the console opens.\n'
		);
		const list = await reps(['list']);
		expect(list.code).toBe(0);
		expect(list.stderr).toBe(
			`Database: the embedded one in ${dataDir} (DATABASE_URL is not set).\n`
		);
		expect(list.stdout).toMatch(
			/1207\s+31\s+Sam Ortiz\s+Sam@Example.com\s+\(217\) 555-0100\s+active, temporary password$/m
		);
		expect(list.stdout).not.toContain(PASSWORD);
		expect(list.stdout).not.toContain('scrypt');
	});

	it('refuses a data folder with no database but to add the first rep, and makes none', async () => {
		const typo = join(dataDir, 'typo');
		for (const args of [['list'], ['disable', '--email', 'sam@example.com']]) {
			const run = await runRepsCli(args, { env: { DATA_DIR: typo } });
			expect(run.code).toBe(1);
			expect(run.stderr).toBe(
				`error: there is no portal database in ${typo}: is DATA_DIR right? (The portal makes it on its first start, as \`add\` does.)\n`
			);
		}
		expect(existsSync(typo)).toBe(false);
	});

	it('refuses a second account for the same email, in any case', async () => {
		const sameEmail = await reps(
			['add', '--office', '1207', '--rep-no', '40', '--email', 'SAM@example.COM', '--name', 'X'],
			PASSWORD
		);
		expect(sameEmail.code).toBe(1);
		expect(sameEmail.stderr).toContain('error: a rep with this email already exists');
	});

	it('resets a password and disables a rep; the portal’s sign-in agrees', async () => {
		const reset = await reps(
			['reset-password', '--email', 'sam@example.com'],
			'a brand new pass phrase\n'
		);
		expect(reset.code).toBe(0);
		expect(reset.stdout).toContain('New password set for Sam Ortiz');
		const missing = await reps(['disable', '--email', 'nobody@example.com']);
		expect(missing).toMatchObject({ code: 1 });
		expect(missing.stderr).toContain('no rep has the email nobody@example.com');

		const database = await openDatabase({ dataDir });
		try {
			const rules = { maxFailures: 5, maxFailuresPerAddress: 50, lockoutMinutes: 15 };
			const meta = { ip: '127.0.0.1', userAgent: 'vitest' };
			const attempt = (password: string) =>
				signIn(database.db, rules, { email: 'sam@example.com', password }, meta);
			expect((await attempt(PASSWORD)).ok).toBe(false);
			expect((await attempt('a brand new pass phrase')).ok).toBe(true);
			// The operator's password is temporary: the rep chooses their own at sign-in.
			expect((await listReps(database.db))[0]!.passwordTemporary).toBe(true);
		} finally {
			await database.close();
		}
		// Typed by the rep themselves at the operator's terminal: theirs to keep.
		const own = await reps(
			['reset-password', '--email', 'sam@example.com', '--own-password'],
			'a brand new pass phrase\n'
		);
		expect(own).toMatchObject({ code: 0 });
		expect(own.stdout).not.toContain('temporary');
		expect((await reps(['list', '--office', '1207'])).stdout).toMatch(/Sam Ortiz.*active$/m);

		expect((await reps(['disable', '--email', 'sam@example.com'])).code).toBe(0);
		expect((await reps(['list', '--office', '1207'])).stdout).toMatch(/Sam Ortiz.*disabled/);
		expect((await reps(['list', '--office', '4242'])).stdout).toContain('No reps.');
		const reopened = await openDatabase({ dataDir });
		try {
			expect((await listReps(reopened.db))[0]!.disabledAt).toBeInstanceOf(Date);
		} finally {
			await reopened.close();
		}
		// Enabled again, and said so; a second time says it was already.
		expect((await reps(['enable', '--email', 'sam@example.com'])).stdout).toContain(
			'Enabled Sam Ortiz'
		);
		expect((await reps(['enable', '--email', 'sam@example.com'])).stdout).toMatch(
			/^Sam Ortiz.* was already enabled\.$/m
		);
	});

	it('refuses, naming the holder, while the portal has the data folder open', async () => {
		const release = lockDataDir(dataDir, 'the portal');
		try {
			const busy = await reps(['list']);
			expect(busy.code).toBe(1);
			expect(busy.stderr).toContain(`in use by the portal (process ${process.pid}`);
			expect(busy.stderr).toContain('stop it and try again, or use DATABASE_URL');
		} finally {
			release();
		}
		expect((await reps(['list'])).code).toBe(0);
	});
});

describe.runIf(TEST_DATABASE_URL)(
	'npm run reps on a PostgreSQL server',
	{ timeout: 90_000 },
	() => {
		it('names the server and the database it works on, and nothing else of the URL', async () => {
			const url = new URL(TEST_DATABASE_URL!);
			const run = await runRepsCli(['list', '--office', '999999'], {
				env: { DATA_DIR: dataDir, DATABASE_URL: TEST_DATABASE_URL! }
			});
			expect(run.stderr).toMatch(
				new RegExp(
					`^Database: PostgreSQL, database ${url.pathname.slice(1)} at ${url.hostname}:${url.port || 5432} \\(DATABASE_URL\\)\\.\n`
				)
			);
		});
	}
);

describe('the database named, with a password not percent-encoded', { timeout: 60_000 }, () => {
	it('names nothing of a URL whose password a / ? or # cut short, and says to encode it', async () => {
		let err = '';
		const code = await runCli({
			args: ['list'],
			env: { DATA_DIR: dataDir, DATABASE_URL: 'postgres://opwalk:12/zz@127.0.0.1:9/opwalk' },
			stdin: Readable.from(['']),
			out: { write: () => true },
			err: { write: (s: string) => (err += s) }
		});
		expect(code).toBe(1);
		expect(err.split('\n')[0]).toBe(
			'Database: PostgreSQL, as DATABASE_URL names it, whose password seems to hold a / ? or # that must be percent-encoded (/ as %2F, ? as %3F, # as %23).'
		);
		// Read as pg reads it, the host would be "opwalk", the port 12 and the database "zz@…".
		expect(err).not.toMatch(/zz|opwalk|:12\b/);
	});
});

/** The same entry point in this process (a folder of its own): arguments are checked first. */
const ownDir = mkdtempSync(join(tmpdir(), 'portal-reps-cli-'));
afterAll(() => rmSync(ownDir, { recursive: true, force: true }));

async function inProcess(args: string[], input = '', extraEnv: Record<string, string> = {}) {
	let out = '';
	let err = '';
	const code = await runCli({
		args,
		env: { DATA_DIR: ownDir, ...extraEnv },
		stdin: Readable.from([input]),
		out: { write: (s: string) => (out += s) },
		err: { write: (s: string) => (err += s) }
	});
	// The line naming the database (checked above) is not what these tests are about.
	return { code, out, err: err.replace(/^Database: .*\n/, '') };
}

describe('the command line, checked', { timeout: 90_000 }, () => {
	it('lists every bad argument, in our words, with exit code 2', async () => {
		const bad = await inProcess(
			['add', '--office', '12x', '--rep-no', '-3', '--email', 'nope', '--name', ''],
			PASSWORD
		);
		expect(bad.code).toBe(2);
		expect(bad.err).toContain('error: --office: must be a whole number such as 1207');
		expect(bad.err).toContain('error: --rep-no: must be a whole number such as 31');
		expect(bad.err).toContain('error: --email: must be an email address such as sam@example.com');
		expect(bad.err).toContain('error: --name: is required');
		const missing = await inProcess(['add', '--office', '1207']);
		expect(missing.err).toContain('error: --email: is required');
		const phone = await inProcess([...ADD, '--name', 'Lee', '--phone', 'call me']);
		expect(phone.err).toContain('error: --phone: must be digits');
		// Too large or too long, said so rather than "not a number".
		const large = await inProcess([
			'add',
			'--office',
			'1207',
			'--rep-no',
			'99999999999999999999',
			'--email',
			'lee@example.com',
			'--name',
			'Lee',
			'--phone',
			'5'.repeat(300)
		]);
		expect(large.err).toContain('error: --rep-no: is too large (at most 9 digits)');
		expect(large.err).toContain('error: --phone: is too long (at most 25 characters)');
		const emoji = await inProcess([...ADD, '--name', 'Jo Kim 🌵']);
		expect(emoji.err).toContain(
			'error: --name: may not contain emoji or symbols: it goes on the certificates'
		);
		// The name and address go on the record, where the trail refuses anything SSN-shaped.
		const ssn = await inProcess([...ADD, '--name', 'Jo Kim 123-45-6789']);
		expect(ssn.err).toContain(
			'error: --name: may not hold anything that looks like a Social Security Number'
		);
		expect((await inProcess(['disable'])).err).toContain('error: --email: is required');
		const nothing = await inProcess([]);
		expect(nothing).toMatchObject({ code: 2 });
		expect(nothing.err).toContain('Usage: npm run reps');
		for (const flag of ['--help', '-h']) {
			const help = await inProcess(['add', flag]);
			expect(help, flag).toMatchObject({ code: 0, err: '' });
			expect(help.out, flag).toContain('Usage: npm run reps');
		}
	});

	it('refuses a short password and a second active rep with the same number', async () => {
		expect((await inProcess([...ADD, '--name', 'Sam'], PASSWORD)).code).toBe(0);
		const lee = ['add', '--office', '1207', '--rep-no', '32', '--email', 'lee@example.com'];
		const short = await inProcess([...lee, '--name', 'Lee'], 'too short\n');
		expect(short.code).toBe(2);
		expect(short.err).toContain('error: password: must be at least 15 characters');
		const spaces = await inProcess([...lee, '--name', 'Lee'], `${' '.repeat(16)}\n`);
		expect(spaces.code).toBe(2);
		expect(spaces.err).toContain('error: password: must be more than spaces');
		const none = await inProcess([...lee, '--name', 'Lee'], '');
		expect(none.code).toBe(2);
		expect(none.err).toContain(
			'error: password: none was given (type it, or pipe it in on one line)'
		);
		expect(none.err).not.toContain('at least 15');
		const sameNumber = await inProcess(
			['add', '--office', '1207', '--rep-no', '31', '--email', 'other@example.com', '--name', 'Y'],
			PASSWORD
		);
		expect(sameNumber.code).toBe(1);
		expect(sameNumber.err).toContain('this office already has an active rep with this rep number');
		const ok = await inProcess([...lee, '--name', 'Lee Park'], PASSWORD);
		expect(ok).toMatchObject({
			code: 0,
			out: 'Added Lee Park <lee@example.com>, rep 32 of office 1207. The password is temporary: at their next sign-in they choose their own before the console opens.\n'
		});
	});
});

describe('a rep’s details corrected', { timeout: 90_000 }, () => {
	it('changes the email, name and phone, and refuses another rep’s email or nothing to change', async () => {
		const kim = ['add', '--office', '1207', '--rep-no', '51', '--email', 'kim@exmaple.com'];
		expect(
			(await inProcess([...kim, '--name', 'Kim Lee', '--phone', '217 555 0101'], PASSWORD)).code
		).toBe(0);
		expect(
			(
				await inProcess(
					[
						'add',
						'--office',
						'1207',
						'--rep-no',
						'52',
						'--email',
						'jo@example.com',
						'--name',
						'Jo'
					],
					PASSWORD
				)
			).code
		).toBe(0);
		const fixed = await inProcess([
			'update',
			'--email',
			'KIM@exmaple.com',
			'--new-email',
			'kim@example.com',
			'--name',
			'Kim Leigh',
			'--phone',
			''
		]);
		expect(fixed).toMatchObject({
			code: 0,
			out: 'Updated Kim Leigh <kim@example.com>, rep 51 of office 1207.\n'
		});
		const [row] = (await inProcess(['list', '--office', '1207'])).out
			.split('\n')
			.filter((l) => l.includes('kim@example.com'));
		expect(row).toMatch(/^1207\s+51\s+Kim Leigh\s+kim@example.com\s+active, temporary password$/);
		// The same account and password, under the new address.
		const database = await openDatabase({ dataDir: ownDir });
		try {
			const rules = { maxFailures: 5, maxFailuresPerAddress: 50, lockoutMinutes: 15 };
			const signedIn = await signIn(
				database.db,
				rules,
				{ email: 'kim@example.com', password: PASSWORD },
				{ ip: '127.0.0.1', userAgent: 'vitest' }
			);
			expect(signedIn.ok).toBe(true);
		} finally {
			await database.close();
		}
		const taken = await inProcess([
			'update',
			'--email',
			'kim@example.com',
			'--new-email',
			'JO@example.com'
		]);
		expect(taken).toMatchObject({ code: 1, err: 'error: a rep with this email already exists\n' });
		const none = await inProcess(['update', '--email', 'kim@example.com']);
		expect(none.code).toBe(2);
		expect(none.err).toContain(
			'error: update needs --new-email, --name or --phone: what to change'
		);
		const bad = await inProcess([
			'update',
			'--email',
			'kim@example.com',
			'--new-email',
			'nope',
			'--phone',
			'call me'
		]);
		expect(bad.err).toContain(
			'error: --new-email: must be an email address such as sam@example.com'
		);
		expect(bad.err).toContain('error: --phone: must be digits');
		const nobody = await inProcess(['update', '--email', 'nobody@example.com', '--name', 'X']);
		expect(nobody).toMatchObject({
			code: 1,
			err: 'error: no rep has the email nobody@example.com\n'
		});
	});
});

describe('a rep’s office, asked of the Onboarding Service', { timeout: 90_000 }, () => {
	it('refuses an office the service has not, and only warns when it cannot be asked', async () => {
		const service = await startTestServer((req, res) => {
			const office = /^\/api\/office\/(\d+)\/application\/$/.exec(req.url)?.[1];
			if (office === '9999') json(res, 404, { Message: 'No such office' });
			else if (office === '4400') json(res, 503, { Message: 'Down for maintenance' });
			else json(res, 200, []);
		});
		const upstream = { ONBOARDING_BASE_URL: service.baseUrl };
		const add = (office: string, repNo: string, email: string) =>
			inProcess(
				['add', '--office', office, '--rep-no', repNo, '--email', email, '--name', 'Ana Ruiz'],
				PASSWORD,
				upstream
			);
		try {
			const unknown = await add('9999', '7', 'ana@example.com');
			expect(unknown).toMatchObject({
				code: 1,
				out: '',
				err: `error: the Onboarding Service at ${service.baseUrl} has no office 9999: is --office right? No rep was added.\n`
			});
			const away = await add('4400', '7', 'ana@example.com');
			expect(away.code).toBe(0);
			expect(away.err).toBe(
				`warning: the Onboarding Service at ${service.baseUrl} could not be asked whether it has office 4400: their console will say if it has none.\n`
			);
			expect(away.out).toBe(
				'Added Ana Ruiz <ana@example.com>, rep 7 of office 4400. The password is temporary: at their next sign-in they choose their own before the console opens.\n'
			);
			const known = await add('1207', '8', 'ana.r@example.com');
			expect(known).toMatchObject({ code: 0, err: '' });
			// The client asks a 503 again (a GET), so the middle one may come more than once.
			expect([...new Set(service.seen.map((r) => r.url))]).toEqual([
				'/api/office/9999/application/',
				'/api/office/4400/application/',
				'/api/office/1207/application/'
			]);
		} finally {
			await service.close();
		}
		// The embedded sandbox serves every office: nothing is asked of it.
		expect(
			(
				await inProcess(
					['add', '--office', '9999', '--rep-no', '9', '--email', 'b@example.com', '--name', 'B'],
					PASSWORD
				)
			).code
		).toBe(0);
	});
});

describe('the command line, parsed', () => {
	it('takes quoted names with spaces and rejects strays', () => {
		expect(parseCommand(['add', '--name', 'Sam Ortiz', '--office=1207'])).toEqual({
			command: 'add',
			options: { name: 'Sam Ortiz', office: '1207' }
		});
		expect(() => parseCommand(['add', '--name', 'Sam', 'Ortiz'])).toThrow(
			/unexpected argument "Ortiz"/
		);
		expect(() => parseCommand(['list', '--email', 'a@b.c'])).toThrow(
			/list takes no option --email/
		);
		expect(() => parseCommand(['add', '--office'])).toThrow(/--office needs a value/);
		expect(() => parseCommand(['add', '--office', '1', '--office', '2'])).toThrow(/given twice/);
		expect(parseCommand(['reset-password', '--own-password', '--email', 'a@b.c'])).toEqual({
			command: 'reset-password',
			options: { 'own-password': 'yes', email: 'a@b.c' }
		});
		expect(() => parseCommand(['add', '--own-password=no'])).toThrow(
			/--own-password takes no value/
		);
		expect(() => parseCommand(['list', '--own-password'])).toThrow(
			/list takes no option --own-password/
		);
		expect(() => parseCommand(['remove'])).toThrow(/unknown command "remove"/);
	});
});
