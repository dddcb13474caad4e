// Upstream calls per page, read from the embedded sandbox's request log (its control API): what a
// view and a reload of each page cost the Onboarding Service, and whether calls overlapped.
import { anyOverlap } from './stats.js';
import { fetchAs } from './flow.js';

/**
 * @typedef {{ method: string, path: string, operation: string | null, status: number | null, at: string, durationMs: number | null }} Logged
 */

/**
 * @param {string} origin
 * @returns {Promise<Logged[]>}
 */
async function requestLog(origin) {
	const res = await fetch(`${origin}/sandbox/_sandbox/requests`);
	if (!res.ok) throw new Error(`sandbox request log: HTTP ${res.status}`);
	return /** @type {Logged[]} */ (await res.json());
}

/** @param {Logged[]} calls */
function describe(calls) {
	return {
		count: calls.length,
		operations: calls.map((c) => c.operation ?? c.path),
		// Calls of one page that ran side by side (only meaningful with two or more).
		overlapped:
			calls.length > 1
				? anyOverlap(
						calls.map((c) => {
							const start = Date.parse(c.at);
							return { start, end: start + (c.durationMs ?? 0) };
						})
					)
				: null
	};
}

/**
 * Two GETs of a page in a row: its view and its reload.
 * @param {string} origin
 * @param {string} path
 * @param {string | null} cookie
 */
export async function upstreamCalls(origin, path, cookie) {
	const before = (await requestLog(origin)).length;
	await fetchAs(origin, path, cookie);
	const afterView = await requestLog(origin);
	await fetchAs(origin, path, cookie);
	const afterReload = await requestLog(origin);
	return {
		view: describe(afterView.slice(before)),
		reload: describe(afterReload.slice(afterView.length))
	};
}
