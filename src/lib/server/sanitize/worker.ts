import { isMainThread, parentPort, workerData } from 'node:worker_threads';

/**
 * The sanitizer's thread runs this module (see thread.ts). Imported on the main thread it only
 * tells where it is: in a build, a JavaScript file a Worker can start.
 */
export const WORKER_URL = import.meta.url;
export const ROLE = 'portal-sanitizer';

export interface Job {
	id: number;
	raws: string[];
}

export type Reply =
	{ id: number; results: { html: string; sha256: string }[] } | { id: number; error: string };

if (!isMainThread && parentPort && workerData?.role === ROLE) {
	const port = parentPort;
	const { sanitizeHtml } = await import('./sanitize');
	port.on('message', (job: Job) => {
		let reply: Reply;
		try {
			reply = { id: job.id, results: job.raws.map(sanitizeHtml) };
		} catch (err) {
			// The error's class only: a message could quote the HTML.
			reply = { id: job.id, error: err instanceof Error ? err.name : 'Error' };
		}
		port.postMessage(reply);
	});
}
