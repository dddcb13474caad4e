// The load generator: wrk (Debian's `wrk`), one thread, N keep-alive connections, each request
// taking the next signer's cookie and path in turn, so the load comes from many signers at once.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runToEnd } from './procs.js';

export const WRK = process.env.WRK ?? '/usr/bin/wrk';

/** What a phone's browser sends with every page request. */
export const BROWSER_HEADERS = {
	'User-Agent':
		'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
	Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
	'Accept-Encoding': 'gzip, deflate, br',
	'Accept-Language': 'en-US,en;q=0.9'
};

/** @param {string} s */
const lua = (s) => JSON.stringify(s);

/**
 * @typedef {{ path: string, cookie?: string }} Target
 */

/**
 * Writes the Lua script that rotates over the targets and prints a JSON summary.
 * @param {string} file
 * @param {Target[]} targets
 */
function writeScript(file, targets) {
	const headers = Object.entries(BROWSER_HEADERS)
		.map(([k, v]) => `[${lua(k)}] = ${lua(v)}`)
		.join(', ');
	const list = targets
		.map((t) => `{ path = ${lua(t.path)}, cookie = ${t.cookie ? lua(t.cookie) : 'nil'} }`)
		.join(',\n  ');
	writeFileSync(
		file,
		`local targets = {
  ${list}
}
local n = #targets
local i = 0
local base = { ${headers} }
request = function()
  i = i + 1
  local t = targets[(i % n) + 1]
  local h = {}
  for k, v in pairs(base) do h[k] = v end
  if t.cookie then h["Cookie"] = t.cookie end
  return wrk.format("GET", t.path, h)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"durationUs":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50Us":%d,"p99Us":%d}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`
	);
}

/**
 * Runs wrk against `origin` for `seconds`; the rotation starts at a different signer per run.
 * @param {{ origin: string, targets: Target[], seconds: number, connections: number, workDir: string, name: string }} o
 * @returns {Promise<import('./stats.js').Run>}
 */
export async function load(o) {
	if (o.targets.length === 0) throw new Error(`wrk ${o.name}: no targets`);
	const script = resolve(o.workDir, `wrk-${o.name}.lua`);
	writeScript(script, o.targets);
	const logFile = resolve(o.workDir, `wrk-${o.name}.out`);
	writeFileSync(logFile, '');
	await runToEnd(
		WRK,
		['-t1', `-c${o.connections}`, `-d${o.seconds}s`, '--timeout', '10s', '-s', script, o.origin],
		{ cwd: o.workDir, logFile }
	);
	const out = readFileSync(logFile, 'utf8');
	const line = out.split('\n').find((l) => l.startsWith('BENCH_JSON '));
	if (!line) throw new Error(`wrk ${o.name}: no summary in its output:\n${out}`);
	const r = JSON.parse(line.slice('BENCH_JSON '.length));
	return {
		rps: r.requests / (r.durationUs / 1e6),
		p50Ms: r.p50Us / 1000,
		p99Ms: r.p99Us / 1000,
		requests: r.requests,
		// wrk counts statuses of 400 and above; a redirect (a session at another step) is caught
		// by the checks before and after each run instead.
		errors: r.connect + r.read + r.write + r.status + r.timeout
	};
}
