// The readable report: plain-text tables of what results.json holds.

/**
 * @param {string[]} head
 * @param {string[][]} rows
 */
export function table(head, rows) {
	const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
	const line = (/** @type {string[]} */ cells) =>
		'| ' +
		cells
			.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
			.join(' | ') +
		' |';
	return [
		line(head),
		'|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|',
		...rows.map(line)
	].join('\n');
}

const f0 = (/** @type {number} */ x) => (Number.isFinite(x) ? Math.round(x).toString() : '–');
const f1 = (/** @type {number} */ x) => (Number.isFinite(x) ? x.toFixed(1) : '–');
const f2 = (/** @type {number} */ x) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const kb = (/** @type {number} */ x) => (Number.isFinite(x) ? (x / 1024).toFixed(1) : '–');

/**
 * @param {any} results
 * @param {import('./budgets.js').Check[]} checks
 */
export function render(results, checks) {
	const out = [];
	out.push(
		`Benchmark ${results.startedAt} · ${results.machine.cpus} cores, load ${results.machine.loadBefore.map(f2).join(' ')} before · ` +
			`${results.options.connections} connections, ${results.options.signers} signers per step, ` +
			`${results.options.rounds} rounds of ${results.options.seconds} s per page and floor, alternating`
	);
	for (const [db, r] of Object.entries(results.databases)) {
		const d = /** @type {any} */ (r);
		out.push(
			`\n## ${db}: each page against the floor (a bare SvelteKit page with the same HTML)\n`
		);
		out.push(
			table(
				[
					'page',
					'req/s',
					'floor',
					'ratio',
					'spread',
					'p50 ms',
					'p99 ms',
					'floor p99',
					'p99 ratio',
					'CPU ms/req',
					'CPU ratio',
					'errors'
				],
				Object.entries(d.pages).map(([key, page]) => {
					const p = /** @type {any} */ (page);
					if (p.skipped) return [key, 'skipped', '', '', '', '', '', '', '', '', '', p.skipped];
					return [
						key,
						f0(p.rps),
						f0(p.floorRps),
						`${f2(p.rpsRatio)}×`,
						`${f2(p.rpsRatioSpread[0])}–${f2(p.rpsRatioSpread[1])}`,
						f1(p.p50Ms),
						f1(p.p99Ms),
						f1(p.floorP99Ms),
						`${f2(p.p99Ratio)}×`,
						`${f2(p.cpuMsPerRequest)}/${f2(p.floorCpuMsPerRequest)}`,
						`${f2(p.cpuRatio)}×`,
						String(p.errors)
					];
				})
			)
		);
		out.push(`\nupstream calls (${db}): view / reload, and whether calls of one page overlapped\n`);
		out.push(
			table(
				['page', 'view', 'reload', 'operations', 'overlap'],
				Object.entries(d.upstream).map(([key, u]) => {
					const x = /** @type {any} */ (u);
					const ops = [...x.view.operations, ...x.reload.operations];
					const overlap = [x.view.overlapped, x.reload.overlapped].find((o) => o !== null);
					return [
						key + (x.note ? ` (${x.note})` : ''),
						String(x.view.count),
						String(x.reload.count),
						[...new Set(ops)].join(', ') || '–',
						overlap === undefined ? 'n/a' : overlap ? 'yes' : 'no'
					];
				})
			)
		);
		out.push(
			`\nstart-up (${db}), to the first answer (CPU time in brackets): fresh ${f0(d.startup.freshMs)} ms (${f0(d.startup.freshCpuMs)}), ` +
				`existing ${f0(d.startup.existingMs)} ms (${f0(d.startup.existingCpuMs)}); floor ${f0(d.startup.floorMs)} ms (${f0(d.startup.floorCpuMs)})` +
				` · memory: idle ${f0(d.memory.idleMb)} MB, after the load ${f0(d.memory.afterLoadMb)} MB, peak ${f0(d.memory.peakMb)} MB` +
				` (floor after its load ${f0(d.memory.floorAfterLoadMb)} MB)`
		);
	}
	if (results.wire) {
		out.push(`\n## Bytes on the wire, a phone's cold load (KB as sent; HTML encoding)\n`);
		const rows = Object.entries(results.wire.pages).map(([key, w]) => {
			const c = /** @type {any} */ (w);
			const fl = results.wire.floor[key];
			return [
				key,
				kb(c.html),
				c.htmlEncoding ?? 'none',
				kb(c.js),
				kb(c.css),
				kb(c.headers),
				kb(c.total),
				fl ? kb(fl.js) : '–',
				fl ? `${f2(c.js / fl.js)}×` : '–'
			];
		});
		out.push(
			table(['page', 'HTML', 'enc.', 'JS', 'CSS', 'headers', 'total', 'floor JS', 'JS ratio'], rows)
		);
		if (results.wire.pdf) {
			out.push(
				'\nPDFs as sent: ' +
					Object.entries(results.wire.pdf)
						.map(([k, v]) => `${k} ${kb(/** @type {number} */ (v))} KB`)
						.join(', ')
			);
		}
	}
	if (results.sanitizer) {
		const s = results.sanitizer;
		out.push(`\n## Sanitizer, largest section (${s.sectionChars} characters), per call\n`);
		const rows = [
			['first call of the process', f2(s.firstCallMs), '', ''],
			['cold (DOMPurify on jsdom)', f2(s.cold.medianMs), f2(s.cold.p90Ms), '1.00×'],
			[
				'cached in the database table',
				f2(s.cachedInTable.medianMs),
				f2(s.cachedInTable.p90Ms),
				`${f2(s.cachedInTable.medianMs / s.cold.medianMs)}×`
			]
		];
		if (s.cachedInProcess) {
			rows.push([
				'cached in process',
				f2(s.cachedInProcess.medianMs),
				f2(s.cachedInProcess.p90Ms),
				`${f2(s.cachedInProcess.medianMs / s.cold.medianMs)}×`
			]);
		}
		out.push(table(['call', 'median ms', 'p90 ms', 'vs cold'], rows));
	}
	out.push('\n## Budgets\n');
	out.push(
		table(
			['budget', 'measured', ''],
			checks.map((c) => [
				c.budget,
				c.value,
				c.skipped ? `skipped: ${c.skipped}` : c.ok ? 'met' : 'MISSED'
			])
		)
	);
	return out.join('\n');
}
