// Where `npm start` (scripts/start.js) listens: on embedded defaults the sandbox's control API and
// the development mailbox are served, so only loopback; with a real service, every interface.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

const freePort = () =>
	new Promise<number>((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});

/** Whether something accepts a TCP connection at host:port. */
const reachable = (host: string, port: number) =>
	new Promise<boolean>((resolve) => {
		const socket = connect({ host, port, timeout: 2_000 });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
		socket.once('timeout', () => {
			socket.destroy();
			resolve(false);
		});
	});

/** This machine's address on a network, if it has one (loopback aside). */
const lanAddress = Object.values(networkInterfaces())
	.flat()
	.find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

/**
 * Runs `node scripts/start.js` with only the given settings until it prints where it listens, or
 * until its output matches `until`. A `dataDir` given is kept; else one is made, and removed.
 */
async function start(
	settings: Record<string, string>,
	keep?: { dataDir: string },
	until = /Demo signing link:|Rep console:/
) {
	const port = await freePort();
	const dataDir = keep?.dataDir ?? mkdtempSync(join(tmpdir(), 'portal-listen-'));
	const child = spawn(process.execPath, ['scripts/start.js'], {
		env: { PATH: process.env.PATH ?? '', PORT: String(port), DATA_DIR: dataDir, ...settings },
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let out = '';
	// Watched as it comes rather than polled: a test can then stop the portal at that very line.
	let seen = () => {};
	const shown = new Promise<void>((resolve) => (seen = resolve));
	const read = (d: Buffer) => {
		out += d.toString();
		if (until.test(out)) seen();
	};
	child.stdout.on('data', read);
	child.stderr.on('data', read);
	const late = setTimeout(() => seen(), 45_000);
	await shown;
	clearTimeout(late);
	expect(out, 'the start did not print what was awaited within 45 s').toMatch(until);
	const listening = /Listening on https?:\/\/([^\s]+):\d+/.exec(out)?.[1];
	return {
		port,
		listening,
		demoLink: /Demo signing link: (\S+)/.exec(out)?.[1],
		output: () => out,
		async stop() {
			const exited = new Promise<number | null>((r) => child.once('exit', r));
			child.kill('SIGTERM');
			const code = await exited;
			if (!keep) rmSync(dataDir, { recursive: true, force: true });
			return code;
		}
	};
}

test('embedded defaults listen on loopback only, unless HOST says otherwise', async () => {
	test.setTimeout(120_000);
	const embedded = await start({});
	try {
		expect(embedded.listening).toBe('127.0.0.1');
		// The summary says whom a merchant whose rep has no account is pointed to.
		expect(embedded.output()).toContain(
			'Office contact:    none (merchants whose rep has no account here get no name to write to: set OFFICE_CONTACT_NAME and OFFICE_CONTACT_EMAIL)'
		);
		expect(await reachable('127.0.0.1', embedded.port)).toBe(true);
		if (lanAddress) expect(await reachable(lanAddress, embedded.port)).toBe(false);
	} finally {
		// A stop says it is stopping, then that it has, and ends cleanly.
		const code = await embedded.stop();
		expect(code, embedded.output()).toBe(0);
		// Each line after the start's summary says when it was written.
		expect(embedded.output()).toMatch(
			/\n\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \[stop\] SIGTERM: no new connections; .*\n(.*\n)*\d{4}-\d\d-\d\dT[\d:.]+Z \[stop\] stopped: every request answered, the database closed\./
		);
	}
	const opened = await start({
		HOST: '0.0.0.0',
		OFFICE_CONTACT_NAME: 'Office 1207 sales desk',
		OFFICE_CONTACT_EMAIL: 'desk@office1207.example'
	});
	try {
		expect(opened.listening).toBe('0.0.0.0');
		expect(opened.output()).toContain(
			'Office contact:    Office 1207 sales desk, desk@office1207.example  (named to merchants whose rep has no account here)'
		);
		if (lanAddress) expect(await reachable(lanAddress, opened.port)).toBe(true);
	} finally {
		await opened.stop();
	}
});

test('a stop while the portal is still starting ends cleanly, and announces nothing', async () => {
	test.setTimeout(120_000);
	// Stopped as soon as it listens: the start script is then still asking it for the demo link,
	// and the seal generated on embedded defaults has not opened yet.
	const starting = await start({}, undefined, /Listening on/);
	const code = await starting.stop();
	expect(code, starting.output()).toBe(0);
	expect(starting.output()).toMatch(
		/\[stop\] stopped: every request answered, the database closed\./
	);
	expect(starting.output()).not.toMatch(/\[fatal\]|Portal:/);
});

test('with a real Onboarding Service configured, every interface as before', async ({ page }) => {
	test.setTimeout(120_000);
	// Nothing listens on that port: the portal starts all the same, it calls the service on demand.
	const nobody = await freePort();
	const production = await start({
		ONBOARDING_BASE_URL: `http://svc:secret@127.0.0.1:${nobody}/api`,
		ORIGIN: 'https://sign.example.com'
	});
	try {
		expect(production.listening).toBe('0.0.0.0');
		// The start says where the service is (never a password in its address) and that nothing
		// answers there.
		expect(production.output()).toContain(
			`Onboarding Service: http://127.0.0.1:${nobody}/api  (NOT ANSWERING: ECONNREFUSED; check ONBOARDING_BASE_URL)`
		);
		expect(production.output()).not.toContain('secret');
		// On the embedded database a key is generated, so the API is open.
		expect(production.output()).toMatch(
			/Operator API: {6}https:\/\/sign\.example\.com\/api\/v1 \(key in \S+\/operator-api-key\)/
		);
		if (lanAddress) expect(await reachable(lanAddress, production.port)).toBe(true);
		// Opened at another address than ORIGIN, a form is refused with the address that works.
		await page.goto(`http://127.0.0.1:${production.port}/rep/login`);
		await page.getByLabel('Email').fill('riley.lockwood@office1207.example');
		await page.getByLabel('Password').fill('whatever it is');
		await page.getByRole('button', { name: 'Sign in' }).click();
		await expect(
			page.getByText(
				`This form was sent from a page at http://127.0.0.1:${production.port}, but this portal's address is https://sign.example.com, so it was refused.`
			)
		).toBeVisible();
	} finally {
		await production.stop();
	}
});

test('a restart prints the demo link again while it opens, and a new one replaces no link', async () => {
	test.setTimeout(180_000);
	const dataDir = mkdtempSync(join(tmpdir(), 'portal-listen-'));
	const path = (url: string | undefined) => new URL(url!).pathname;
	try {
		const first = await start({}, { dataDir });
		await first.stop();
		const second = await start({}, { dataDir });
		await second.stop();
		expect(path(second.demoLink)).toBe(path(first.demoLink));
		// The kept link no longer names one that opens: the next start makes a new link, for
		// another application, since the first one's link is still out.
		writeFileSync(
			join(dataDir, 'demo-link.json'),
			JSON.stringify({ id: 1, url: 'http://x/s/gone' })
		);
		const third = await start({}, { dataDir });
		try {
			expect(third.demoLink).toMatch(/\/s\//);
			expect(path(third.demoLink)).not.toBe(path(first.demoLink));
			for (const link of [first.demoLink, third.demoLink]) {
				expect((await fetch(`http://127.0.0.1:${third.port}${path(link)}`)).status).toBe(200);
			}
		} finally {
			await third.stop();
		}
	} finally {
		rmSync(dataDir, { recursive: true, force: true });
	}
});

/**
 * Runs `node scripts/start.js` with only the given settings (made in its fresh data folder, or
 * the one given), expecting it to stop, exit code 1, before it listens; its output, for the
 * reasons. The folder is removed afterwards unless `keep`.
 */
async function refusedStart(
	settings: (dataDir: string) => Record<string, string>,
	{ timeout = 30_000, keep = false, dataDir = mkdtempSync(join(tmpdir(), 'portal-listen-')) } = {}
) {
	try {
		const run = spawnSync(process.execPath, ['scripts/start.js'], {
			env: {
				PATH: process.env.PATH ?? '',
				DATA_DIR: dataDir,
				PORT: String(await freePort()),
				...settings(dataDir)
			},
			encoding: 'utf8',
			timeout
		});
		expect(run.status).toBe(1);
		expect(run.stdout).not.toContain('Listening');
		return run;
	} finally {
		if (!keep) rmSync(dataDir, { recursive: true, force: true });
	}
}

test('a seal bundle that does not open stops the start before it listens, in our words', async () => {
	const run = await refusedStart(
		(dataDir) => {
			const bundle = join(dataDir, 'not-a-bundle.p12');
			writeFileSync(bundle, 'not a PKCS#12 bundle');
			return { SEAL_P12_FILE: bundle };
		},
		{ timeout: 60_000 }
	);
	expect(run.stderr).toContain('  - SEAL_P12_FILE: cannot be opened as a PKCS#12 bundle');
	expect(run.stdout).not.toContain('Portal:');
});

test('a data folder restored without its encryption key is refused, not started under a new key', async () => {
	test.setTimeout(120_000);
	const dataDir = mkdtempSync(join(tmpdir(), 'portal-listen-'));
	const first = await start({}, { dataDir });
	await first.stop();
	// A restore that left the key behind (as a backup kept apart from it would): a new one would
	// be generated, and nothing written before could be read under it.
	rmSync(join(dataDir, 'encryption.key'));
	const key = join(dataDir, 'encryption.key');
	const run = await refusedStart(() => ({}), { timeout: 60_000, keep: true, dataDir });
	try {
		expect(run.stderr).toContain(
			[
				'The encryption key is not the one this database was written with:',
				`  - the encryption key in the data folder (${key}): missing, while the database holds data encrypted under a key. Put back the key file it was written with`
			].join('\n')
		);
		expect(run.stdout).not.toContain('Portal:');
		// The key this start generated is not left to pass for the real one in a backup.
		expect(existsSync(key)).toBe(false);
	} finally {
		rmSync(dataDir, { recursive: true, force: true });
	}
});

test('a HOST this machine does not have stops the start in our words', async () => {
	// 192.0.2.1 is documentation's own address (TEST-NET-1): no machine has it.
	const run = await refusedStart(() => ({ HOST: '192.0.2.1' }), { timeout: 60_000 });
	expect(run.stderr).toContain(
		'[start] HOST 192.0.2.1 is not an address of this machine: give one it has, or 0.0.0.0 for all of them.'
	);
	expect(run.stderr).not.toContain('uncaught');
});

test('with a real Onboarding Service and no ORIGIN, npm start stops: links to localhost reach no merchant', async () => {
	const run = await refusedStart(() => ({ ONBOARDING_BASE_URL: 'http://127.0.0.1:9' }));
	expect(run.stderr).toBe(
		[
			'Invalid configuration:',
			'  - ORIGIN: must be set with ONBOARDING_BASE_URL: the address merchants open their signing links at, such as https://sign.example.com',
			''
		].join('\n')
	);
});

test('a bad adapter-node setting stops npm start with our words, before anything listens, listed with the portal’s own', async () => {
	const run = await refusedStart(() => ({
		PORT: 'abc',
		BODY_SIZE_LIMIT: 'lots',
		KEEP_ALIVE_TIMEOUT: 'x',
		LINK_TTL_HOURS: 'abc'
	}));
	expect(run.stderr).toBe(
		[
			'Invalid configuration:',
			'  - PORT: must be a whole number from 1 to 65535',
			'  - BODY_SIZE_LIMIT: must be a number of bytes, with K, M or G after it if you like (such as 512K or 8M), or Infinity',
			'  - KEEP_ALIVE_TIMEOUT: must be a whole number of seconds from 0 to 86400',
			// Checked by the portal as it starts: in the same list, not after the others are mended.
			'  - LINK_TTL_HOURS: must be a whole number from 1 to 2160',
			''
		].join('\n')
	);
});

test('started from another folder, start.js says which folder to start it from', () => {
	const run = spawnSync(process.execPath, [join(process.cwd(), 'scripts/start.js')], {
		cwd: tmpdir(),
		env: { PATH: process.env.PATH ?? '' },
		encoding: 'utf8',
		timeout: 30_000
	});
	expect(run.status).toBe(1);
	expect(run.stderr).toContain(
		`Start the portal from its own folder: cd ${process.cwd()} first: it reads build/ and drizzle/ from the folder it is started in.`
	);
});

test('the build started with node from another folder finds its migrations and serves', async () => {
	test.setTimeout(90_000);
	const port = await freePort();
	const dataDir = mkdtempSync(join(tmpdir(), 'portal-listen-'));
	const child = spawn(process.execPath, [join(process.cwd(), 'build')], {
		cwd: tmpdir(),
		env: {
			PATH: process.env.PATH ?? '',
			PORT: String(port),
			HOST: '127.0.0.1',
			DATA_DIR: dataDir
		},
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let out = '';
	child.stdout.on('data', (d: Buffer) => (out += d.toString()));
	child.stderr.on('data', (d: Buffer) => (out += d.toString()));
	const ended = new Promise<number | null>((resolve) => child.once('exit', resolve));
	try {
		await expect.poll(() => out, { timeout: 60_000 }).toMatch(/Listening on|could not/);
		expect(out).not.toContain('could not');
		const health = await fetch(`http://127.0.0.1:${port}/healthz`);
		expect(health.status).toBe(200);
		expect(await health.json()).toMatchObject({ database: 'pglite' });
	} finally {
		child.kill('SIGTERM');
		await ended;
		rmSync(dataDir, { recursive: true, force: true });
	}
});

test('with every finishable demo application decided, the start says so and how to start over', async () => {
	test.setTimeout(120_000);
	const dataDir = mkdtempSync(join(tmpdir(), 'portal-listen-'));
	try {
		const first = await start({}, { dataDir });
		// The embedded service lists 50001–50003 as signed (a fault that replaces its list).
		const sandbox = `http://127.0.0.1:${first.port}/sandbox`;
		const list = (await (await fetch(`${sandbox}/api/office/1207/application/`)).json()) as {
			ApplicationID: number;
			Status: string;
		}[];
		const signed = list.map((a) => (a.ApplicationID <= 50003 ? { ...a, Status: 'Signed' } : a));
		const fault = await fetch(`${sandbox}/_sandbox/faults/listapplications`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				status: 200,
				body: JSON.stringify(signed),
				contentType: 'application/json'
			})
		});
		expect(fault.status).toBe(200);
		await first.stop();
		rmSync(join(dataDir, 'demo-link.json'));
		const second = await start({}, { dataDir });
		await second.stop();
		expect(second.demoLink).toBe('none');
		expect(second.output()).toContain(
			`Demo signing link: none (50001–50003, the demo applications a merchant can finish, are all decided; "Start a demo signing" on http://localhost:${second.port}/ makes a new one, or removing the data folder (${dataDir}) while the portal is stopped starts over with fresh demo data)`
		);
	} finally {
		rmSync(dataDir, { recursive: true, force: true });
	}
});
