// The budgets of issue 10, checked against a run's results. Pure, unit-tested.

export const BUDGETS = {
	/** A merchant page's requests/s against the floor's, per database. */
	minRpsRatio: { postgres: 0.5, pglite: 0.3 },
	/** A merchant page's p99 against the floor's. */
	maxP99Ratio: 3,
	/** The terms page's cold load on a phone, everything on the wire. */
	maxTermsColdBytes: 45 * 1024,
	/** The terms page's JavaScript against the floor page's. */
	maxTermsJsRatio: 1.1,
	/** Resident memory after the load, per database. */
	maxRssAfterLoadMb: { postgres: 300, pglite: 400 },
	/** First answered request after starting on an existing data folder. */
	maxStartExistingMs: 2000
};

/**
 * @typedef {{ budget: string, value: string, ok: boolean, skipped?: string }} Check
 * @typedef {'pglite' | 'postgres'} DbKind
 */

const pct = (/** @type {number} */ x) => `${x.toFixed(2)}×`;

/**
 * Every budget against the results; a skipped page is listed as skipped, never as met.
 * @param {any} results
 * @returns {Check[]}
 */
export function evaluate(results) {
	/** @type {Check[]} */
	const checks = [];
	for (const [db, r] of /** @type {[DbKind, any][]} */ (Object.entries(results.databases ?? {}))) {
		for (const [key, page] of Object.entries(r.pages ?? {})) {
			const p = /** @type {any} */ (page);
			if (p.skipped) {
				checks.push({
					budget: `${db} ${key}: requests/s and p99 against the floor`,
					value: 'skipped',
					ok: true,
					skipped: p.skipped
				});
				continue;
			}
			const min = BUDGETS.minRpsRatio[db];
			checks.push({
				budget: `${db} ${key}: requests/s ≥ ${min}× floor`,
				value: pct(p.rpsRatio),
				ok: p.rpsRatio >= min
			});
			checks.push({
				budget: `${db} ${key}: p99 ≤ ${BUDGETS.maxP99Ratio}× floor`,
				value: pct(p.p99Ratio),
				ok: p.p99Ratio <= BUDGETS.maxP99Ratio
			});
			checks.push({
				budget: `${db} ${key}: no failed requests under load`,
				value: String(p.errors),
				ok: p.errors === 0
			});
		}
		for (const [key, u] of Object.entries(r.upstream ?? {})) {
			const up = /** @type {any} */ (u);
			if (up.budget === false) continue;
			checks.push({
				budget: `${db} ${key}: no upstream call on a reload`,
				value: String(up.reload.count),
				ok: up.reload.count === 0
			});
		}
		if (r.memory) {
			const max = BUDGETS.maxRssAfterLoadMb[db];
			checks.push({
				budget: `${db}: resident memory after the load ≤ ${max} MB`,
				value: `${Math.round(r.memory.afterLoadMb)} MB`,
				ok: r.memory.afterLoadMb <= max
			});
		}
		if (r.startup && db === 'pglite') {
			const max = BUDGETS.maxStartExistingMs;
			checks.push({
				budget: `${db}: start-up on an existing data folder ≤ ${max} ms`,
				value: `${Math.round(r.startup.existingMs)} ms`,
				ok: r.startup.existingMs <= max
			});
		}
	}
	const wire = results.wire;
	if (wire) {
		for (const [key, w] of Object.entries(wire.pages ?? {})) {
			const c = /** @type {any} */ (w);
			checks.push({
				budget: `${key}: HTML compressed for a client that accepts it`,
				value: c.htmlEncoding ?? 'none',
				ok: c.htmlEncoding !== null
			});
		}
		const terms = wire.pages?.terms;
		const floor = wire.floor?.terms;
		if (terms) {
			checks.push({
				budget: `terms: cold load ≤ ${BUDGETS.maxTermsColdBytes / 1024} KB on the wire`,
				value: `${(terms.total / 1024).toFixed(1)} KB`,
				ok: terms.total <= BUDGETS.maxTermsColdBytes
			});
		}
		if (terms && floor) {
			const ratio = terms.js / floor.js;
			checks.push({
				budget: `terms: JavaScript ≤ ${BUDGETS.maxTermsJsRatio}× floor`,
				value: pct(ratio),
				ok: ratio <= BUDGETS.maxTermsJsRatio
			});
		}
	}
	return checks;
}

/** @param {Check[]} checks */
export const missed = (checks) => checks.filter((c) => !c.ok);
