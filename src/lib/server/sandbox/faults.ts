import { eq } from 'drizzle-orm';
import type { Tx } from '../db';
import { sandboxFaults } from '../db/schema';
import { addError, json, reason, type ModelState } from './http';
import type { Operation } from './router';

export type Fault = typeof sandboxFaults.$inferSelect;

/** A hang never outlasts this, so a forgotten fault cannot pin a request (or a test) forever. */
export const HANG_CAP_MS = 10 * 60 * 1000;
const MAX_LATENCY_MS = HANG_CAP_MS;

export async function getFault(tx: Tx, operation: Operation): Promise<Fault | undefined> {
	const [row] = await tx.select().from(sandboxFaults).where(eq(sandboxFaults.operation, operation));
	return row;
}

/** Waits `ms`, or less if `signal` aborts; the timer never keeps the process alive. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		const done = () => {
			clearTimeout(timer);
			signal?.removeEventListener('abort', done);
			resolve();
		};
		const timer = setTimeout(done, ms);
		timer.unref?.();
		if (signal?.aborted) done();
		else signal?.addEventListener('abort', done, { once: true });
	});
}

/**
 * Plays a fault: latency first, then a hang (until the caller goes away or the cap), then a
 * status. Returns the response to send, or null to go on with the real operation.
 */
export async function playFault(fault: Fault, signal: AbortSignal): Promise<Response | null> {
	if (fault.latencyMs) await sleep(fault.latencyMs, signal);
	if (fault.hang) {
		await sleep(HANG_CAP_MS, signal);
		return json({ Message: 'The sandbox was told to hang.' }, 504);
	}
	if (fault.status === null) return null;
	const status = fault.status;
	const noBody = status === 204 || status === 205 || status === 304;
	if (fault.body !== null || noBody) {
		const headers: Record<string, string> = {};
		if (fault.contentType) headers['content-type'] = fault.contentType;
		else if (fault.body) headers['content-type'] = 'text/plain; charset=utf-8';
		return new Response(noBody || fault.body === '' ? null : fault.body, { status, headers });
	}
	return json({ Message: reason(status) }, status);
}

export type FaultInput = Omit<Fault, 'operation'>;

/** Checks a `PUT /_sandbox/faults/{operation}` body. */
export function parseFault(
	body: unknown
): { ok: true; fault: FaultInput } | { ok: false; modelState: ModelState } {
	const state: ModelState = {};
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		return { ok: false, modelState: { body: ['A JSON object is expected.'] } };
	}
	const b = body as Record<string, unknown>;
	const fault: FaultInput = {
		status: null,
		latencyMs: null,
		hang: false,
		body: null,
		contentType: null
	};
	if (b.status !== undefined && b.status !== null) {
		if (Number.isInteger(b.status) && (b.status as number) >= 200 && (b.status as number) <= 599) {
			fault.status = b.status as number;
		} else addError(state, 'status', 'status must be an integer from 200 to 599.');
	}
	if (b.latencyMs !== undefined && b.latencyMs !== null) {
		const ms = b.latencyMs;
		if (Number.isInteger(ms) && (ms as number) >= 0 && (ms as number) <= MAX_LATENCY_MS) {
			fault.latencyMs = ms as number;
		} else
			addError(state, 'latencyMs', `latencyMs must be an integer from 0 to ${MAX_LATENCY_MS}.`);
	}
	if (b.hang !== undefined && b.hang !== null) {
		if (typeof b.hang === 'boolean') fault.hang = b.hang;
		else addError(state, 'hang', 'hang must be true or false.');
	}
	for (const key of ['body', 'contentType'] as const) {
		if (b[key] === undefined || b[key] === null) continue;
		if (typeof b[key] === 'string') fault[key] = b[key];
		else addError(state, key, `${key} must be a string.`);
	}
	if ((fault.body !== null || fault.contentType !== null) && fault.status === null) {
		addError(state, 'status', 'A body or contentType needs a status.');
	}
	return Object.keys(state).length > 0 ? { ok: false, modelState: state } : { ok: true, fault };
}

export async function putFault(tx: Tx, operation: Operation, fault: FaultInput): Promise<void> {
	await tx
		.insert(sandboxFaults)
		.values({ operation, ...fault })
		.onConflictDoUpdate({ target: sandboxFaults.operation, set: fault });
}

export async function clearFaults(tx: Tx): Promise<void> {
	await tx.delete(sandboxFaults);
}
