// The arithmetic of the benchmark: medians, spreads and ratios. Pure functions, unit-tested.

/**
 * @param {number[]} values
 * @returns {number}
 */
export function median(values) {
	if (values.length === 0) return NaN;
	const s = [...values].sort((a, b) => a - b);
	const mid = Math.floor(s.length / 2);
	const at = (/** @type {number} */ i) => /** @type {number} */ (s[i]);
	return s.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
}

/**
 * One measured run of a load generator.
 * @typedef {{ rps: number, p50Ms: number, p99Ms: number, requests: number, errors: number, cpuMsPerRequest?: number }} Run
 */

/**
 * A page against its floor, from runs taken in alternating order (floor, page, page, floor…), so
 * that the load other processes put on the machine meanwhile weighs on both alike. The ratio of
 * each adjacent pair shows the spread; the figure reported is the median over the pairs.
 * @param {Run[]} page
 * @param {Run[]} floor
 */
export function compareRuns(page, floor) {
	if (page.length === 0 || page.length !== floor.length) {
		throw new Error('compareRuns: one floor run per page run is needed');
	}
	const pairs = page.map((p, i) => {
		const f = /** @type {Run} */ (floor[i]);
		return {
			rps: p.rps / f.rps,
			p50: p.p50Ms / f.p50Ms,
			p99: p.p99Ms / f.p99Ms
		};
	});
	const spread = (/** @type {number[]} */ xs) => [Math.min(...xs), Math.max(...xs)];
	return {
		rps: median(page.map((r) => r.rps)),
		p50Ms: median(page.map((r) => r.p50Ms)),
		p99Ms: median(page.map((r) => r.p99Ms)),
		floorRps: median(floor.map((r) => r.rps)),
		floorP50Ms: median(floor.map((r) => r.p50Ms)),
		floorP99Ms: median(floor.map((r) => r.p99Ms)),
		rpsRatio: median(pairs.map((p) => p.rps)),
		rpsRatioSpread: spread(pairs.map((p) => p.rps)),
		p50Ratio: median(pairs.map((p) => p.p50)),
		p99Ratio: median(pairs.map((p) => p.p99)),
		p99RatioSpread: spread(pairs.map((p) => p.p99)),
		// The server process's own CPU time per request: what the other work on the machine changes
		// least. The floor's over the page's reads like the requests/s ratio (higher is better).
		cpuMsPerRequest: median(page.map((r) => r.cpuMsPerRequest ?? NaN)),
		floorCpuMsPerRequest: median(floor.map((r) => r.cpuMsPerRequest ?? NaN)),
		cpuRatio: median(
			page.map((p, i) => (floor[i]?.cpuMsPerRequest ?? NaN) / (p.cpuMsPerRequest ?? NaN))
		),
		errors: page.reduce((n, r) => n + r.errors, 0),
		floorErrors: floor.reduce((n, r) => n + r.errors, 0)
	};
}

/**
 * Whether any two of the time intervals overlap (calls that ran side by side).
 * @param {{ start: number, end: number }[]} intervals
 */
export function anyOverlap(intervals) {
	const s = [...intervals].sort((a, b) => a.start - b.start);
	for (let i = 1; i < s.length; i++) {
		if (
			/** @type {{ start: number }} */ (s[i]).start < /** @type {{ end: number }} */ (s[i - 1]).end
		)
			return true;
	}
	return false;
}
