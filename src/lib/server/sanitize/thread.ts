import { Worker } from 'node:worker_threads';
import type { Sanitized } from './version';
import type { Job, Reply } from './worker';

/**
 * Sanitizing needs jsdom, which takes about 100 MB of memory once loaded and, being most of what
 * stays alive on the heap, lets V8 grow the heap to several times that under load. Sanitizing is
 * rare (once per distinct text across all instances, results kept in the database), so it runs
 * in a thread of its own that ends after IDLE_MS without work and takes jsdom's memory with it.
 * Where the code runs from TypeScript sources (the dev server, unit tests) no thread can start it:
 * there it runs in-process.
 */
const IDLE_MS = 30_000;
/** A call that takes longer has a stuck thread: it is ended and the call fails. */
const TIMEOUT_MS = 20_000;
const HEAP_LIMIT_MB = 256;

interface Pending {
	resolve(results: Sanitized[]): void;
	reject(error: Error): void;
	timer: NodeJS.Timeout;
}

// The thread and its calls in flight: process resources, not request state. Bounded: one thread.
let worker: Worker | undefined;
let idleTimer: NodeJS.Timeout | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

export class SanitizerError extends Error {
	constructor(reason: string) {
		super(`The sanitizer failed (${reason}).`);
		this.name = 'SanitizerError';
	}
}

function stop(reason: string) {
	const w = worker;
	worker = undefined;
	clearTimeout(idleTimer);
	for (const [id, p] of pending) {
		clearTimeout(p.timer);
		p.reject(new SanitizerError(reason));
		pending.delete(id);
	}
	void w?.terminate();
}

function start(url: string, role: string): Worker {
	const w = new Worker(new URL(url), {
		workerData: { role },
		resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB },
		stdout: false,
		stderr: false
	});
	w.unref();
	w.on('message', (reply: Reply) => {
		const p = pending.get(reply.id);
		if (!p) return;
		pending.delete(reply.id);
		clearTimeout(p.timer);
		if ('error' in reply) p.reject(new SanitizerError(reply.error));
		else p.resolve(reply.results);
		if (pending.size === 0) idleTimer = setTimeout(() => stop('idle'), IDLE_MS).unref();
	});
	w.on('error', (err) => {
		if (worker === w) stop(err.name);
	});
	w.on('exit', () => {
		if (worker === w) stop('thread ended');
	});
	return w;
}

/** Sanitizes each text (see sanitizeHtml), off the main thread where a build allows it. */
export async function sanitizeMany(raws: string[]): Promise<Sanitized[]> {
	if (raws.length === 0) return [];
	const { WORKER_URL, ROLE } = await import('./worker');
	if (!WORKER_URL.endsWith('.js')) {
		const { sanitizeHtml } = await import('./sanitize');
		return raws.map(sanitizeHtml);
	}
	clearTimeout(idleTimer);
	worker ??= start(WORKER_URL, ROLE);
	const id = nextId++;
	const job: Job = { id, raws };
	return new Promise<Sanitized[]>((resolve, reject) => {
		const timer = setTimeout(() => stop('timed out'), TIMEOUT_MS).unref();
		pending.set(id, { resolve, reject, timer });
		worker!.postMessage(job);
	});
}
