// Every process the benchmark starts goes through here, so that all of them are stopped when it
// ends: normally, on a failure, or on Ctrl-C.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { request } from 'node:http';

/** @typedef {import('node:child_process').ChildProcess} ChildProcess */

/** @type {Set<ChildProcess>} */
const running = new Set();
let handlersInstalled = false;

function killAll() {
	for (const child of running) {
		try {
			child.kill('SIGKILL');
		} catch {
			/* already gone */
		}
	}
}

/** Stops every child on exit, Ctrl-C, SIGTERM and an uncaught failure. */
export function installCleanup() {
	if (handlersInstalled) return;
	handlersInstalled = true;
	process.on('exit', killAll);
	for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
		process.on(signal, () => {
			console.error(`\nbench: ${signal}, stopping ${running.size} process(es)`);
			killAll();
			process.exit(130);
		});
	}
	process.on('uncaughtException', (err) => {
		console.error(err);
		killAll();
		process.exit(1);
	});
	process.on('unhandledRejection', (err) => {
		console.error(err);
		killAll();
		process.exit(1);
	});
}

/**
 * Starts a child with its output in `logFile`.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, logFile: string }} opts
 * @returns {ChildProcess}
 */
export function startProcess(command, args, { cwd, env, logFile }) {
	const fd = openSync(logFile, 'a');
	const child = spawn(command, args, { cwd, env, stdio: ['ignore', fd, fd] });
	closeSync(fd);
	running.add(child);
	child.once('exit', () => running.delete(child));
	return child;
}

/**
 * Runs a command to its end; rejects with the tail of its output when it fails.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, env?: NodeJS.ProcessEnv, logFile: string }} opts
 */
export async function runToEnd(command, args, opts) {
	const child = startProcess(command, args, { env: process.env, ...opts });
	const code = await new Promise((resolve) => child.once('exit', (c) => resolve(c)));
	if (code !== 0) {
		const tail = readFileSync(opts.logFile, 'utf8').split('\n').slice(-20).join('\n');
		throw new Error(`${command} ${args.join(' ')} failed (exit ${code}):\n${tail}`);
	}
}

/**
 * SIGTERM, then SIGKILL if it is still there after `graceMs`.
 * @param {ChildProcess} child
 */
export async function stopProcess(child, graceMs = 5000) {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise((resolve) => child.once('exit', resolve));
	child.kill('SIGTERM');
	const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
	await exited;
	clearTimeout(timer);
}

/**
 * One GET over a fresh connection; resolves with the status, or 0 when nothing answered.
 * @param {string} url
 * @returns {Promise<number>}
 */
function probe(url) {
	return new Promise((resolve) => {
		const req = request(url, { agent: false, timeout: 2000 }, (res) => {
			res.resume();
			res.once('end', () => resolve(res.statusCode ?? 0));
		});
		req.once('error', () => resolve(0));
		req.once('timeout', () => req.destroy());
		req.end();
	});
}

/**
 * Polls `url` every 10 ms until it answers 200; resolves with the milliseconds since `since`.
 * @param {string} url
 * @param {ChildProcess} child
 * @param {number} since performance.now() when the process was started
 */
export async function waitUntilAnswering(url, child, since, timeoutMs = 60_000) {
	for (;;) {
		if (child.exitCode !== null)
			throw new Error(`the server exited (${child.exitCode}) before answering ${url}`);
		if ((await probe(url)) === 200) return performance.now() - since;
		if (performance.now() - since > timeoutMs)
			throw new Error(`no answer from ${url} in ${timeoutMs} ms`);
		await new Promise((r) => setTimeout(r, 10));
	}
}

/**
 * Resident set and its peak, in MB, from /proc (Linux).
 * @param {number} pid
 * @returns {{ rssMb: number, peakMb: number }}
 */
export function memoryOf(pid) {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = (/** @type {string} */ field) =>
		Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
	return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/**
 * CPU time the process has used so far (user and system), in ms: unlike the wall clock, it hardly
 * changes with what else the machine is doing. Linux clock ticks are 1/100 s.
 * @param {number} pid
 */
export function cpuMsOf(pid) {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	// Fields after the command name (which may hold spaces) start at ") ".
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	return (Number(fields[11]) + Number(fields[12])) * 10;
}
