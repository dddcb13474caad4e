import { sql } from 'drizzle-orm';
import type { Tx } from '../db';
import {
	sandboxAcceptanceOverrides,
	sandboxApplications,
	sandboxCounters,
	sandboxDecisions,
	sandboxFaults,
	sandboxQuestionSets,
	sandboxRequests,
	sandboxSettings
} from '../db/schema';

/** Where each id sequence starts (the first id handed out is one more). */
export const COUNTER_START = {
	application: 50100,
	// The start page's demo copies (addDemoApplication): a range of their own, so that a demo
	// never takes an id an operator's (or a test's) create would be handed next.
	demo: 60000,
	terminal: 70000,
	decision: 90000
} as const;

export type Counter = keyof typeof COUNTER_START;

/** The next id of a sequence; atomic across instances sharing the database. */
export async function nextId(tx: Tx, name: Counter): Promise<number> {
	const [row] = await tx
		.insert(sandboxCounters)
		.values({ name, value: COUNTER_START[name] + 1 })
		.onConflictDoUpdate({
			target: sandboxCounters.name,
			set: { value: sql`${sandboxCounters.value} + 1` }
		})
		.returning({ value: sandboxCounters.value });
	if (!row) throw new Error(`counter ${name} did not advance`);
	return row.value;
}

export const DEFAULT_TIME_LIMIT_SECONDS = 120;

export interface SandboxSettings {
	timeLimitSeconds: number;
}

export async function getSettings(tx: Tx): Promise<SandboxSettings> {
	const rows = await tx.select().from(sandboxSettings);
	const value = rows.find((r) => r.key === 'timeLimitSeconds')?.value;
	return {
		timeLimitSeconds: typeof value === 'number' ? value : DEFAULT_TIME_LIMIT_SECONDS
	};
}

export async function putSetting(tx: Tx, key: keyof SandboxSettings, value: unknown) {
	await tx
		.insert(sandboxSettings)
		.values({ key, value })
		.onConflictDoUpdate({ target: sandboxSettings.key, set: { value } });
}

/** Empties every sandbox table (the control API's reset, before reseeding). */
export async function wipe(tx: Tx): Promise<void> {
	for (const table of [
		sandboxAcceptanceOverrides,
		sandboxApplications,
		sandboxCounters,
		sandboxDecisions,
		sandboxFaults,
		sandboxQuestionSets,
		sandboxRequests,
		sandboxSettings
	]) {
		await tx.delete(table);
	}
}
