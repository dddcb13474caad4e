import { afterEach, describe, expect, it, vi } from 'vitest';
import { Outage } from './outage';

function capture() {
	const lines: string[] = [];
	const push = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
	vi.spyOn(console, 'error').mockImplementation(push);
	vi.spyOn(console, 'info').mockImplementation(push);
	return lines;
}

const refused = () =>
	Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432 with secret words'), {
		code: 'ECONNREFUSED'
	});

describe('Outage', () => {
	afterEach(() => {
		vi.restoreAllMocks();
		vi.unstubAllEnvs();
	});

	it('says a failure once, again when it changes or every ten minutes, and when it ends', () => {
		vi.stubEnv('DATABASE_URL', 'postgres://portal:pw@db.internal:6543/portal');
		const lines = capture();
		const o = new Outage('worker', 'decisions');
		const t0 = Date.parse('2026-11-27T12:00:00Z');
		const wrapped = new Error('Failed query: select … params: Dana', { cause: refused() });
		o.failed(wrapped, t0);
		o.failed(wrapped, t0 + 10_000);
		o.failed(wrapped, t0 + 20_000);
		expect(lines).toEqual([
			"[worker] decisions failed: the database: nothing answers at db.internal:6543: is PostgreSQL running there, and are DATABASE_URL's host and port right? (ECONNREFUSED)."
		]);
		// Another way to fail is said at once; the same one again after ten minutes.
		o.failed(Object.assign(new TypeError('x'), { code: 'E_OTHER' }), t0 + 30_000);
		o.failed(Object.assign(new TypeError('x'), { code: 'E_OTHER' }), t0 + 31_000);
		o.failed(Object.assign(new TypeError('x'), { code: 'E_OTHER' }), t0 + 30_000 + 600_000);
		expect(lines.slice(1)).toEqual([
			'[worker] decisions failed: TypeError code=E_OTHER (failing since 2026-11-27T12:00:00.000Z, 4 times)',
			'[worker] decisions failed: TypeError code=E_OTHER (failing since 2026-11-27T12:00:00.000Z, 6 times)'
		]);
		o.worked();
		o.worked();
		expect(lines.slice(3)).toEqual([
			'[worker] decisions works again, after 6 failures since 2026-11-27T12:00:00.000Z'
		]);
		// Nothing of the driver's message, nor the password.
		expect(lines.join('\n')).not.toMatch(/Dana|secret|pw@|10\.0\.0\.5/);
		// A new outage starts its own count.
		o.failed(wrapped, t0 + 3_600_000);
		expect(lines[4]).toMatch(/^\[worker\] decisions failed: the database: nothing answers/);
	});
});
