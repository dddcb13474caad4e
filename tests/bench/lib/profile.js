// Reads a V8 CPU profile (node --cpu-prof) and sums self time by package and by function.
import { readFileSync } from 'node:fs';

/**
 * @typedef {{ id: number, callFrame: { functionName: string, url: string, lineNumber: number }, children?: number[] }} ProfileNode
 * @typedef {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[], startTime: number, endTime: number }} Profile
 */

/** Where a function lives: a package, the portal's bundle, Node itself, or V8's own entries. */
export function owner(/** @type {string} */ url, /** @type {string} */ name) {
	if (!url) return name.startsWith('(') ? name : '(native)';
	if (url.startsWith('node:')) return 'node internals';
	const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
	if (pkg) return /** @type {string} */ (pkg[1]);
	if (/\/build\/server\//.test(url) || /\/build\/[^/]+\.js$/.test(url)) return 'portal (bundled)';
	if (url.startsWith('wasm://')) return 'wasm';
	return url.replace(/^file:\/\//, '');
}

/** Now on the clock V8 stamps profiles with (CLOCK_MONOTONIC, in microseconds, on Linux). */
export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * @param {string} file a .cpuprofile
 * @param {{ from?: number, to?: number }} window only samples in this span (monotonicUs), e.g. the load
 * @param {number} top how many functions to list
 */
export function summarize(file, window = {}, top = 25) {
	/** @type {Profile} */
	const profile = JSON.parse(readFileSync(file, 'utf8'));
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	/** @type {Map<number, number>} */
	const self = new Map();
	let at = profile.startTime;
	profile.samples.forEach((id, i) => {
		const delta = profile.timeDeltas[i] ?? 0;
		at += delta;
		if (
			(window.from !== undefined && at < window.from) ||
			(window.to !== undefined && at > window.to)
		)
			return;
		self.set(id, (self.get(id) ?? 0) + delta);
	});
	const total = [...self.values()].reduce((a, b) => a + b, 0);
	/** @type {Map<string, number>} */
	const packages = new Map();
	/** @type {Map<string, number>} */
	const functions = new Map();
	for (const [id, us] of self) {
		const node = byId.get(id);
		if (!node) continue;
		const { functionName, url, lineNumber } = node.callFrame;
		const where = owner(url, functionName);
		packages.set(where, (packages.get(where) ?? 0) + us);
		const fn = `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`;
		functions.set(fn, (functions.get(fn) ?? 0) + us);
	}
	const share = (/** @type {Map<string, number>} */ m, /** @type {number} */ n) =>
		[...m]
			.sort((a, b) => b[1] - a[1])
			.slice(0, n)
			.map(([k, us]) => ({ what: k, ms: Math.round(us / 1000), share: us / total }));
	return {
		totalMs: Math.round(total / 1000),
		packages: share(packages, 20),
		functions: share(functions, top)
	};
}
