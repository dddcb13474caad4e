// The benchmark's own arithmetic and parsing (the benchmark itself runs with `npm run bench`).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUDGETS, evaluate, missed } from './budgets.js';
import { parseForms } from './flow.js';
import { floorPath, PAGES } from './pages.js';
import { owner } from './profile.js';
import { anyOverlap, compareRuns, median } from './stats.js';
import { assetsOf, linkedAssets } from './wire.js';

const run = (rps: number, p50Ms: number, p99Ms: number) => ({
	rps,
	p50Ms,
	p99Ms,
	requests: Math.round(rps * 2),
	errors: 0
});

describe('stats', () => {
	it('takes the median of odd and even counts', () => {
		expect(median([3, 1, 2])).toBe(2);
		expect(median([4, 1, 3, 2])).toBe(2.5);
		expect(median([])).toBeNaN();
	});

	it('compares each page run with the floor run beside it and reports the spread', () => {
		const c = compareRuns(
			[run(500, 10, 40), run(300, 12, 60)],
			[run(1000, 5, 20), run(1000, 5, 20)]
		);
		expect(c.rpsRatio).toBeCloseTo(0.4);
		expect(c.rpsRatioSpread).toEqual([0.3, 0.5]);
		expect(c.p99Ratio).toBeCloseTo(2.5);
		expect(c.floorRps).toBe(1000);
	});

	it('refuses page runs without a floor run each', () => {
		expect(() => compareRuns([run(1, 1, 1)], [])).toThrow(/one floor run per page run/);
	});

	it('tells overlapping calls from sequential ones', () => {
		expect(
			anyOverlap([
				{ start: 0, end: 10 },
				{ start: 5, end: 12 }
			])
		).toBe(true);
		expect(
			anyOverlap([
				{ start: 20, end: 30 },
				{ start: 0, end: 20 }
			])
		).toBe(false);
	});
});

describe('budgets', () => {
	const page = (rpsRatio: number, p99Ratio: number, errors = 0) => ({ rpsRatio, p99Ratio, errors });
	const base = (db: 'pglite' | 'postgres', pages: Record<string, unknown>) => ({
		databases: {
			[db]: {
				pages,
				upstream: {
					terms: { reload: { count: 0 }, budget: true },
					pdf: { reload: { count: 1 }, budget: false }
				},
				memory: { afterLoadMb: 350 },
				startup: { existingMs: 1500 }
			}
		}
	});

	it('holds PostgreSQL to 0.5× and PGlite to 0.3× of the floor, p99 to 3×', () => {
		expect(BUDGETS.minRpsRatio).toEqual({ postgres: 0.5, pglite: 0.3 });
		const pg = missed(evaluate(base('postgres', { terms: page(0.4, 2) }))).map((c) => c.budget);
		expect(pg).toContain('postgres terms: requests/s ≥ 0.5× floor');
		expect(pg).toContain('postgres: resident memory after the load ≤ 300 MB');
		const lite = missed(evaluate(base('pglite', { terms: page(0.4, 3.5, 2) }))).map(
			(c) => c.budget
		);
		expect(lite).toEqual([
			'pglite terms: p99 ≤ 3× floor',
			'pglite terms: no failed requests under load'
		]);
	});

	it('lists a skipped page as skipped, never as met or missed', () => {
		const checks = evaluate(base('pglite', { 'rep-list': { skipped: 'not merged' } }));
		const rep = checks.filter((c) => c.budget.includes('rep-list'));
		expect(rep).toHaveLength(1);
		expect(rep[0]).toMatchObject({ value: 'skipped', skipped: 'not merged' });
		expect(missed(checks).some((c) => c.budget.includes('rep-list'))).toBe(false);
	});

	it('leaves out the upstream budget only where a page says it does not apply', () => {
		const checks = evaluate(base('postgres', {}));
		expect(checks.map((c) => c.budget)).toContain('postgres terms: no upstream call on a reload');
		expect(checks.some((c) => c.budget.startsWith('postgres pdf'))).toBe(false);
	});

	it('checks compression, the terms page’s bytes and its JavaScript against the floor', () => {
		const cold = (total: number, js: number, htmlEncoding: string | null) => ({
			total,
			js,
			htmlEncoding
		});
		const failing = missed(
			evaluate({
				databases: {},
				wire: {
					pages: { terms: cold(50 * 1024, 34_000, null) },
					floor: { terms: cold(30_000, 30_000, null) }
				}
			})
		).map((c) => c.budget);
		expect(failing).toEqual([
			'terms: HTML compressed for a client that accepts it',
			'terms: cold load ≤ 45 KB on the wire',
			'terms: JavaScript ≤ 1.1× floor'
		]);
		const passing = evaluate({
			databases: {},
			wire: {
				pages: { terms: cold(40_000, 32_000, 'br') },
				floor: { terms: cold(0, 30_000, null) }
			}
		});
		expect(missed(passing)).toEqual([]);
	});
});

describe('pages', () => {
	it('loads every merchant page and the rep console’s list, each from sessions of its kind', () => {
		expect(PAGES.map((p) => p.key)).toEqual([
			'link',
			'terms',
			'identity',
			'sign',
			'done',
			'signed-copy-pdf',
			'certificate-pdf',
			'rep-list'
		]);
		const rep = PAGES.find((p) => p.key === 'rep-list')!;
		expect(rep).toMatchObject({ signers: 'rep', cookie: true, kind: 'html' });
		expect(rep.path?.({ applicationId: 0, linkPath: '', cookie: null })).toBe('/rep');
		for (const p of PAGES) expect(p.signers && p.path, p.key).toBeTruthy();
	});

	it('puts a page’s floor at its key, and a PDF’s at its file route', () => {
		const [link] = PAGES;
		expect(floorPath(link!)).toBe('/link');
		expect(floorPath(PAGES.find((p) => p.kind === 'pdf')!)).toBe('/signed-copy-pdf/file');
	});
});

describe('parsing', () => {
	it('reads each form’s action, hidden fields (entities decoded) and input names', () => {
		const html = `<form method="POST" action="?/start"><input type="hidden" name="version" value="a&amp;b">
			<input name="q-1" type="radio" value="3"><button>Go</button></form>
			<form method="POST"><input type=checkbox name=consent value=yes></form>`;
		const [start, consent] = parseForms(html);
		expect(start).toEqual({
			action: '?/start',
			fields: { version: 'a&b' },
			names: ['version', 'q-1']
		});
		expect(consent).toEqual({ action: '', fields: {}, names: ['consent'] });
	});

	it('finds the scripts and stylesheets a page and a script pull in', () => {
		const html = `<link href="/_app/immutable/assets/0.css" rel="stylesheet">
			<link rel="modulepreload" href="/_app/immutable/entry/start.js">
			<script>import("/_app/immutable/entry/app.js"); import('../_app/immutable/nodes/7.js')</script>`;
		expect(assetsOf(html, 'http://x/sign/terms', 'html')).toEqual([
			'http://x/_app/immutable/assets/0.css',
			'http://x/_app/immutable/entry/start.js',
			'http://x/_app/immutable/entry/app.js',
			// A page node, imported with single quotes when the server resolves routes.
			'http://x/_app/immutable/nodes/7.js'
		]);
		// Of a script, its static imports only: the nodes it imports on demand are other routes'.
		const js = `import{a as b}from"../chunks/A.js";import"./B.js";const c=()=>import("../nodes/3.js")`;
		expect(assetsOf(js, 'http://x/_app/immutable/entry/app.js', 'js')).toEqual([
			'http://x/_app/immutable/chunks/A.js',
			'http://x/_app/immutable/entry/B.js'
		]);
		// The page's own modules and styles, as SvelteKit's Link header preloads them.
		const link =
			'<../_app/immutable/assets/0.css>; rel="preload"; as="style"; nopush, ' +
			'<../_app/immutable/nodes/11.js>; rel="modulepreload"; nopush, <https://other/x>; rel="preconnect"';
		expect(linkedAssets(link, 'http://x/rep/login')).toEqual([
			'http://x/_app/immutable/assets/0.css',
			'http://x/_app/immutable/nodes/11.js'
		]);
	});

	it('attributes profile samples to packages, the portal’s bundle and Node', () => {
		expect(owner('file:///w/node_modules/@electric-sql/pglite/dist/x.js', 'f')).toBe(
			'@electric-sql/pglite'
		);
		expect(owner('file:///w/build/server/chunks/a.js', 'f')).toBe('portal (bundled)');
		expect(owner('node:internal/http', 'f')).toBe('node internals');
		expect(owner('', '(garbage collector)')).toBe('(garbage collector)');
	});
});

describe('the command line', () => {
	const bench = (...args: string[]) =>
		spawnSync(process.execPath, [fileURLToPath(new URL('../run.js', import.meta.url)), ...args], {
			encoding: 'utf8',
			env: { PATH: process.env.PATH ?? '' }
		});

	it('says how it is used when asked, and refuses a mistake in words before it builds anything', () => {
		const help = bench('--help');
		expect(help.status).toBe(0);
		for (const option of ['--db', '--pages', '--rounds', '--no-build', '--profile', '--help']) {
			expect(help.stdout).toMatch(new RegExp(`\\s${option}\\s`));
		}
		expect(help.stdout).toContain('rep-list');
		for (const [args, words] of [
			[['--bogus'], 'an option it does not know: --bogus'],
			// `npm run bench --pages terms`: npm takes --pages for itself.
			[['terms'], 'terms is not an option: through npm, options go after --'],
			[['--no-build=1'], '--no-build takes no value'],
			[['--rounds', 'x'], '--rounds takes a whole number of 1 or more'],
			[['--rounds', '0x10'], '--rounds takes a whole number of 1 or more'],
			[['--db', 'mysql'], '--db knows pglite and postgres, not "mysql"'],
			[['--db', 'postgres'], '--db postgres needs TEST_DATABASE_URL'],
			[['--pages', 'terms,nope'], '--pages has no page "nope"']
		] as const) {
			const r = bench(...args);
			expect(r.status, args.join(' ')).toBe(2);
			expect(r.stderr, args.join(' ')).toContain(`bench: ${words}`);
			expect(r.stderr).not.toMatch(/\n\s+at /);
		}
	});
});
