import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../db';
import { sandboxRequests } from '../db/schema';

/**
 * A log of calls to the service operations — method, path, status, time — so tests can count
 * retries. Never bodies or query strings: they can carry personal data.
 */

/** Writes the entry as the call arrives (a hung call is visible before it ends). */
export async function logStart(tx: Tx, method: string, path: string, at: Date): Promise<number> {
	const [row] = await tx
		.insert(sandboxRequests)
		.values({ method, path, at })
		.returning({ id: sandboxRequests.id });
	return row?.id ?? 0;
}

export async function logEnd(
	tx: Tx,
	id: number,
	operation: string | null,
	status: number,
	durationMs: number
): Promise<void> {
	await tx
		.update(sandboxRequests)
		.set({ operation, status, durationMs })
		.where(eq(sandboxRequests.id, id));
}

export interface LoggedRequest {
	method: string;
	path: string;
	operation: string | null;
	status: number | null;
	at: string;
	durationMs: number | null;
}

export async function listRequests(
	tx: Tx,
	filter: { path?: string; method?: string; operation?: string }
): Promise<LoggedRequest[]> {
	const where = [];
	if (filter.path) where.push(eq(sandboxRequests.path, filter.path));
	if (filter.method) where.push(eq(sandboxRequests.method, filter.method.toUpperCase()));
	if (filter.operation) where.push(eq(sandboxRequests.operation, filter.operation));
	const rows = await tx
		.select()
		.from(sandboxRequests)
		.where(and(...where))
		.orderBy(asc(sandboxRequests.id));
	return rows.map((r) => ({
		method: r.method,
		path: r.path,
		operation: r.operation,
		status: r.status,
		at: r.at.toISOString(),
		durationMs: r.durationMs
	}));
}
