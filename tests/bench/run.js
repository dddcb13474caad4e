// npm run bench: builds the portal and the framework's floor, runs both on loopback and measures
// the portal against the floor (see README.md in this folder). Exits 1 naming every budget missed.
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { evaluate, missed } from './lib/budgets.js';
import { fetchAs, pool, signInRep, walkTo } from './lib/flow.js';
import { timeSanitizer, withPortalModules } from './lib/modules.js';
import { floorPath, PAGES } from './lib/pages.js';
import {
	cpuMsOf,
	installCleanup,
	memoryOf,
	runToEnd,
	startProcess,
	stopProcess,
	waitUntilAnswering
} from './lib/procs.js';
import { monotonicUs, summarize } from './lib/profile.js';
import { render } from './lib/report.js';
import { compareRuns } from './lib/stats.js';
import { upstreamCalls } from './lib/upstream.js';
import { coldLoad } from './lib/wire.js';
import { load, WRK } from './lib/wrk.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const work = resolve(here, '.work');

const USAGE = `npm run bench -- [options]   (tests/bench/README.md says how to read the report)
  --db pglite,postgres      which databases (both when TEST_DATABASE_URL is set)
  --pages ${PAGES.map((p) => p.key).join(',')}
                            which pages to load (default all)
  --seconds 1 --rounds 3    length of each measured run (whole seconds), runs per page and floor
  --connections 20          concurrent connections
  --signers 12              distinct signers (sessions) per step
  --no-build                use the existing build/
  --profile                 run the portal under node --cpu-prof and say where the CPU went
  --help                    this text`;

/**
 * Ends with the reason and the usage, as a command line's mistake should: no stack trace.
 * @param {string} why
 * @returns {never}
 */
function usageError(why) {
	console.error(`bench: ${why}\n\n${USAGE}`);
	process.exit(2);
}

const OPTIONS = /** @type {const} */ ({
	'no-build': { type: 'boolean', default: false },
	seconds: { type: 'string', default: '1' },
	rounds: { type: 'string', default: '3' },
	connections: { type: 'string', default: '20' },
	signers: { type: 'string', default: '12' },
	db: { type: 'string' },
	pages: { type: 'string' },
	profile: { type: 'boolean', default: false },
	help: { type: 'boolean', default: false }
});

function parseOptions() {
	try {
		return parseArgs({ options: OPTIONS }).values;
	} catch (err) {
		// Node's words are not ours: what it named is, and why, by its code.
		const { code, message } = /** @type {{ code?: string, message?: string }} */ (err);
		const named = /'([^']+)'/.exec(message ?? '')?.[1] ?? '';
		usageError(
			code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
				? `${named} is not an option: through npm, options go after --, as in npm run bench -- --pages terms`
				: code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE'
					? `${named.split(' ')[0]} takes ${named.includes('<value>') ? 'a value' : 'no value'}`
					: `an option it does not know: ${named}`
		);
	}
}
const opts = parseOptions();
if (opts.help) {
	console.log(USAGE);
	process.exit(0);
}
/**
 * A whole number of at least 1, or the usage.
 * @param {'seconds' | 'rounds' | 'connections' | 'signers'} name
 */
function count(name) {
	const n = Number(opts[name]);
	if (!/^\d+$/.test(opts[name]) || n < 1) usageError(`--${name} takes a whole number of 1 or more`);
	return n;
}
const seconds = count('seconds');
const rounds = count('rounds');
const connections = count('connections');
const signerCount = count('signers');
const basePort = Number(process.env.BENCH_PORT ?? 4390);
const pgUrl = process.env.TEST_DATABASE_URL;
/** @type {import('./lib/budgets.js').DbKind[]} */
const databases = /** @type {any[]} */ (
	opts.db ? opts.db.split(',') : pgUrl ? ['pglite', 'postgres'] : ['pglite']
);
for (const db of databases) {
	if (db !== 'pglite' && db !== 'postgres')
		usageError(`--db knows pglite and postgres, not "${db}"`);
}
if (databases.includes('postgres') && !pgUrl) {
	usageError('--db postgres needs TEST_DATABASE_URL, the PostgreSQL server to run on');
}
const onlyPages = opts.pages ? new Set(opts.pages.split(',')) : null;
for (const key of onlyPages ?? []) {
	if (!PAGES.some((p) => p.key === key)) usageError(`--pages has no page "${key}"`);
}
const pages = PAGES.filter((p) => !onlyPages || onlyPages.has(p.key));
const OPERATOR_KEY = 'bench-operator-key-0123456789abcdef';

const log = (/** @type {string} */ s) => console.log(`bench: ${s}`);

/** The environment of a server the bench starts: only what it sets, nothing of the caller's. */
function serverEnv(/** @type {Record<string, string>} */ extra) {
	/** @type {Record<string, string>} */
	const env = {
		PATH: process.env.PATH ?? '',
		HOME: process.env.HOME ?? '',
		NODE_ENV: 'production'
	};
	return { ...env, ...extra };
}

/**
 * @param {{ name: string, dir: string, port: number, env: Record<string, string>, profileDir?: string, probe?: string }} o
 */
async function startServer(o) {
	const script = resolve(o.dir, 'index.js');
	// For diagnosis, e.g. BENCH_NODE_FLAGS=--trace-gc (its output goes to .work/<server>.log).
	const flags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
	if (o.profileDir) flags.push('--cpu-prof', `--cpu-prof-dir=${o.profileDir}`);
	const args = [...flags, script];
	const origin = `http://127.0.0.1:${o.port}`;
	const started = performance.now();
	const child = startProcess(process.execPath, args, {
		// The portal finds its migrations relative to the working folder.
		cwd: o.name === 'floor' ? o.dir : root,
		env: serverEnv({ PORT: String(o.port), HOST: '127.0.0.1', ORIGIN: origin, ...o.env }),
		logFile: resolve(work, `${o.name}.log`)
	});
	const startupMs = await waitUntilAnswering(`${origin}${o.probe ?? '/healthz'}`, child, started);
	return { child, origin, startupMs, startupCpuMs: cpuMsOf(/** @type {number} */ (child.pid)) };
}

async function build() {
	if (!opts['no-build']) {
		log('building the portal (vite build)');
		await runToEnd(process.execPath, [resolve(root, 'node_modules/vite/bin/vite.js'), 'build'], {
			cwd: root,
			logFile: resolve(work, 'build-portal.log')
		});
	}
	if (!existsSync(resolve(root, 'build/index.js')))
		throw new Error('no build/: run without --no-build');
	log('building the floor (tests/bench/floor, same toolchain)');
	await runToEnd(process.execPath, [resolve(root, 'node_modules/vite/bin/vite.js'), 'build'], {
		cwd: resolve(here, 'floor'),
		env: { ...process.env, BENCH_WORK_DIR: work },
		logFile: resolve(work, 'build-floor.log')
	});
}

/** The portal's settings for a run on `db`. */
function portalEnv(/** @type {string} */ db) {
	/** @type {Record<string, string>} */
	const env = {
		DATA_DIR: resolve(work, `data-${db}`),
		OPERATOR_API_KEY: OPERATOR_KEY,
		// One address sends everything here: the per-address limits would stop the setup.
		RATE_LIMIT_LINK_OPEN: '1000000',
		RATE_LIMIT_IDENTITY: '1000000',
		RATE_LIMIT_DECISION: '1000000'
	};
	if (db === 'postgres') {
		env.DATABASE_URL = /** @type {string} */ (pgUrl);
		env.PORTAL_ENCRYPTION_KEY = randomBytes(32).toString('base64');
	}
	return env;
}

async function wipePostgres() {
	const pg = (await import('pg')).default;
	const client = new pg.Client({ connectionString: pgUrl });
	await client.connect();
	try {
		await client.query(
			'drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public;'
		);
	} finally {
		await client.end();
	}
}

const BENCH_REP = {
	email: 'bench.rep@office1207.example',
	password: randomBytes(18).toString('hex')
};

/**
 * The rep whose sessions load the console. On PGlite, the demo rep the portal seeds (its password
 * is in the data folder). On PostgreSQL, where nothing is seeded, one added with `npm run reps` as
 * an operator would, between the fresh start (which migrated the database) and this one.
 * @param {string} db
 * @param {Record<string, string>} env
 */
async function benchRep(db, env) {
	if (db !== 'postgres') {
		const password = readFileSync(resolve(env.DATA_DIR ?? '', 'demo-rep-password'), 'utf8').trim();
		return { email: 'sam.ortiz@office1207.example', password };
	}
	return BENCH_REP;
}

/** Adds BENCH_REP to the PostgreSQL database with the operator's tool. */
async function addBenchRep(/** @type {Record<string, string>} */ env) {
	const { spawnSync } = await import('node:child_process');
	const r = spawnSync(
		process.execPath,
		[
			resolve(root, 'node_modules/tsx/dist/cli.mjs'),
			'src/lib/server/reps/main.ts',
			'add',
			...['--office', '1207', '--rep-no', '99', '--email', BENCH_REP.email],
			...['--name', 'Bench Rep'],
			// Its own: a temporary one would send every console page to the password page.
			'--own-password'
		],
		{ cwd: root, env: serverEnv(env), input: `${BENCH_REP.password}\n`, encoding: 'utf8' }
	);
	if (r.status !== 0) throw new Error(`npm run reps add: exit ${r.status}: ${r.stderr}`);
}

/** @param {any} page @param {import('./lib/flow.js').Signer} s */
const targetOf = (page, s) => ({
	path: page.path(s),
	cookie: page.cookie ? (s.cookie ?? undefined) : undefined
});

async function main() {
	installCleanup();
	if (!existsSync(WRK))
		throw new Error(`wrk not found at ${WRK} (Debian: apt-get install wrk; or set WRK)`);
	if (databases.includes('postgres') && !pgUrl)
		throw new Error('--db postgres needs TEST_DATABASE_URL');
	rmSync(work, { recursive: true, force: true });
	mkdirSync(work, { recursive: true });
	const t0 = performance.now();
	/** @type {any} */
	const results = {
		startedAt: new Date().toISOString(),
		machine: { cpus: cpus().length, loadBefore: loadavg() },
		options: {
			seconds,
			rounds,
			connections,
			signers: signerCount,
			databases,
			pages: pages.map((p) => p.key)
		},
		databases: {}
	};

	await build();
	log('loading the application fixture and timing the sanitizer');
	const { createRequest, sanitizer } = await withPortalModules(root, async (mod) => {
		const fixtures = await mod('/src/lib/server/onboarding/fixtures.ts');
		return { createRequest: fixtures.exampleCreateRequest(), sanitizer: await timeSanitizer(mod) };
	});
	results.sanitizer = sanitizer;

	/** @type {Awaited<ReturnType<typeof startServer>> | null} */
	let floor = null;
	const floorDir = resolve(work, 'floor-build');
	const floorPages = resolve(work, 'floor-pages.json');

	for (const [i, db] of databases.entries()) {
		const port = basePort + 1 + i;
		log(`${db}: start-up on a fresh data folder`);
		if (db === 'postgres') await wipePostgres();
		rmSync(resolve(work, `data-${db}`), { recursive: true, force: true });
		const env = portalEnv(db);
		const fresh = await startServer({
			name: `portal-${db}-fresh`,
			dir: resolve(root, 'build'),
			port,
			env
		});
		await stopProcess(fresh.child);
		if (db === 'postgres' && pages.some((p) => p.signers === 'rep')) await addBenchRep(env);
		log(`${db}: start-up on the existing data folder`);
		const profileDir = opts.profile ? resolve(work, `profiles-${db}`) : undefined;
		const app = await startServer({
			name: `portal-${db}`,
			dir: resolve(root, 'build'),
			port,
			env,
			profileDir
		});
		await new Promise((r) => setTimeout(r, 1000));
		const idle = memoryOf(/** @type {number} */ (app.child.pid));

		log(`${db}: walking ${signerCount} signers to each step through the real flow`);
		const ctx = { origin: app.origin, operatorKey: OPERATOR_KEY, createRequest };
		/** @type {Record<string, import('./lib/flow.js').Signer[]>} */
		const signers = {};
		let n = 0;
		for (const step of /** @type {const} */ (['terms', 'identity', 'sign', 'done'])) {
			if (!pages.some((p) => p.signers === step)) continue;
			signers[step] = await pool(signerCount, 3, () => walkTo(ctx, step, ++n));
		}
		if (pages.some((p) => p.signers === 'rep')) {
			log(`${db}: signing a rep in ${signerCount} times (a session each)`);
			const rep = await benchRep(db, env);
			signers.rep = await pool(signerCount, 3, () => signInRep(app.origin, rep));
		}

		if (!floor) {
			log('capturing each page for the floor, and starting it');
			/** @type {{ pages: Record<string, string>, files: Record<string, string> }} */
			const captured = { pages: {}, files: {} };
			for (const page of PAGES) {
				const s = signers[/** @type {string} */ (page.signers)]?.[0];
				if (!s || !page.path) continue;
				const { body } = await fetchAs(app.origin, page.path(s), page.cookie ? s.cookie : null);
				if (page.kind === 'pdf') captured.files[page.key] = Buffer.from(body).toString('base64');
				else {
					const main = /<main[\s\S]*<\/main>/.exec(Buffer.from(body).toString('utf8'));
					if (!main) throw new Error(`${page.key}: no <main> in the page`);
					captured.pages[page.key] = main[0];
				}
			}
			writeFileSync(floorPages, JSON.stringify(captured));
			const first = /** @type {import('./lib/pages.js').Page} */ (pages[0]);
			floor = await startServer({
				name: 'floor',
				dir: floorDir,
				port: basePort,
				env: { FLOOR_PAGES: floorPages },
				probe: floorPath(first)
			});
		}

		log(`${db}: upstream calls per page`);
		/** @type {Record<string, any>} */
		const upstream = {};
		for (const page of pages) {
			const s = /** @type {import('./lib/flow.js').Signer} */ (
				signers[/** @type {string} */ (page.signers)]?.[0]
			);
			const { path, cookie } = targetOf(page, s);
			upstream[page.key] = {
				...(await upstreamCalls(app.origin, path, cookie ?? null)),
				budget: page.upstreamBudget ?? true,
				note: page.note
			};
		}

		if (!results.wire) {
			log('bytes on the wire for a cold load');
			results.wire = { pages: {}, floor: {}, pdf: {} };
			for (const page of pages) {
				const s = /** @type {import('./lib/flow.js').Signer} */ (
					signers[/** @type {string} */ (page.signers)]?.[0]
				);
				const { path, cookie } = targetOf(page, s);
				if (page.kind === 'pdf') {
					const { rawGet } = await import('./lib/wire.js');
					results.wire.pdf[page.key] = (
						await rawGet(app.origin + path, cookie ? { Cookie: cookie } : {})
					).bodyBytes;
					continue;
				}
				results.wire.pages[page.key] = await coldLoad(app.origin, path, cookie ?? null);
				results.wire.floor[page.key] = await coldLoad(floor.origin, floorPath(page), null);
			}
		}

		log(`${db}: load, ${connections} connections, ${rounds}×${seconds} s per page and per floor`);
		/** @type {Record<string, { page: import('./lib/stats.js').Run[], floor: import('./lib/stats.js').Run[] }>} */
		const runs = {};
		/**
		 * A run of wrk, with the CPU time the server spent on it.
		 * @param {import('node:child_process').ChildProcess} server
		 * @param {Parameters<typeof load>[0]} o
		 */
		const measured = async (server, o) => {
			const before = cpuMsOf(/** @type {number} */ (server.pid));
			const run = await load(o);
			const cpu = cpuMsOf(/** @type {number} */ (server.pid)) - before;
			return { ...run, cpuMsPerRequest: run.requests > 0 ? cpu / run.requests : NaN };
		};
		const runPage = async (
			/** @type {any} */ page,
			/** @type {number} */ secs,
			/** @type {string} */ tag
		) =>
			measured(app.child, {
				origin: app.origin,
				targets: (signers[page.signers] ?? []).map((s) => targetOf(page, s)),
				seconds: secs,
				connections,
				workDir: work,
				name: `${db}-${page.key}-${tag}`
			});
		const runFloor = async (
			/** @type {any} */ page,
			/** @type {number} */ secs,
			/** @type {string} */ tag
		) =>
			measured(/** @type {any} */ (floor).child, {
				origin: /** @type {any} */ (floor).origin,
				targets: [{ path: floorPath(page) }],
				seconds: secs,
				connections,
				workDir: work,
				name: `floor-${page.key}-${tag}`
			});
		const loadFrom = monotonicUs();
		for (const page of pages) {
			// Warm-up: the JIT, the connection pools and any cache, for both sides alike.
			const warm = await runPage(page, 1, 'warm');
			await runFloor(page, 1, 'warm');
			// A slow page (a PDF rendered per download) needs longer runs to count at all; its floor
			// gets the same length.
			const secs = warm.requests < 60 ? Math.max(seconds, 3) : seconds;
			runs[page.key] = { page: [], floor: [] };
			for (let r = 0; r < rounds; r++) {
				const order = r % 2 === 0 ? ['floor', 'page'] : ['page', 'floor'];
				for (const side of order) {
					const run =
						side === 'page'
							? await runPage(page, secs, String(r))
							: await runFloor(page, secs, String(r));
					runs[page.key]?.[/** @type {'page' | 'floor'} */ (side)].push(run);
				}
			}
		}
		const loadTo = monotonicUs();
		const afterLoad = memoryOf(/** @type {number} */ (app.child.pid));
		const floorMem = memoryOf(/** @type {number} */ (floor.child.pid));

		log(`${db}: checking every signer is still where the load found it`);
		for (const page of pages) {
			for (const s of signers[/** @type {string} */ (page.signers)] ?? []) {
				const { path, cookie } = targetOf(page, s);
				await fetchAs(app.origin, path, cookie ?? null);
			}
		}

		/** @type {Record<string, any>} */
		const pageResults = {};
		for (const page of PAGES) {
			if (runs[page.key]) {
				const r = /** @type {{ page: any[], floor: any[] }} */ (runs[page.key]);
				pageResults[page.key] = { ...compareRuns(r.page, r.floor), runs: r };
			}
		}
		results.databases[db] = {
			startup: {
				freshMs: fresh.startupMs,
				freshCpuMs: fresh.startupCpuMs,
				existingMs: app.startupMs,
				existingCpuMs: app.startupCpuMs,
				floorMs: floor.startupMs,
				floorCpuMs: floor.startupCpuMs
			},
			memory: {
				idleMb: idle.rssMb,
				afterLoadMb: afterLoad.rssMb,
				peakMb: afterLoad.peakMb,
				floorAfterLoadMb: floorMem.rssMb
			},
			pages: pageResults,
			upstream
		};
		await stopProcess(app.child);
		if (profileDir) {
			for (const f of readdirSync(profileDir)) {
				const s = summarize(resolve(profileDir, f), { from: loadFrom, to: loadTo });
				results.databases[db].profile = { file: resolve(profileDir, f), ...s };
				log(`${db}: CPU profile ${f}: ${s.totalMs} ms sampled during the load`);
				for (const p of s.packages)
					console.log(`  ${(p.share * 100).toFixed(1).padStart(5)}%  ${p.what}`);
				console.log('  top functions (self time):');
				for (const p of s.functions)
					console.log(`  ${(p.share * 100).toFixed(1).padStart(5)}%  ${p.what}`);
			}
		}
	}
	if (floor) await stopProcess(floor.child);

	results.durationS = (performance.now() - t0) / 1000;
	const checks = evaluate(results);
	results.budgets = checks;
	writeFileSync(resolve(here, 'results.json'), JSON.stringify(results, null, 2));
	console.log('\n' + render(results, checks));
	console.log(`\nbench: ${results.durationS.toFixed(0)} s; results in tests/bench/results.json`);
	const miss = missed(checks);
	if (miss.length > 0) {
		console.log(`\nbench: ${miss.length} budget(s) missed:`);
		for (const m of miss) console.log(`  - ${m.budget}: ${m.value}`);
		process.exitCode = 1;
	} else console.log('bench: every budget met');
}

await main();
