import { and, count, desc, eq, gte, inArray, isNull } from 'drizzle-orm';
import type { Tx } from '../../db';
import { sandboxQuestionSets, type SandboxIdentityOutcome } from '../../db/schema';

export type QuestionSetRow = typeof sandboxQuestionSets.$inferSelect;

/** Failed attempts (wrong answers or answers after the limit) that lock within this window. */
export const LOCK_WINDOW_MS = 24 * 60 * 60 * 1000;
export const MAX_FAILED_ATTEMPTS = 2;

const ofApplication = (officeId: number, applicationId: number) =>
	and(
		eq(sandboxQuestionSets.officeId, officeId),
		eq(sandboxQuestionSets.applicationId, applicationId)
	);

export async function isVerified(tx: Tx, officeId: number, applicationId: number) {
	const [row] = await tx
		.select({ n: count() })
		.from(sandboxQuestionSets)
		.where(and(ofApplication(officeId, applicationId), eq(sandboxQuestionSets.outcome, 'passed')));
	return (row?.n ?? 0) > 0;
}

export async function isLocked(tx: Tx, officeId: number, applicationId: number, now: Date) {
	const [row] = await tx
		.select({ n: count() })
		.from(sandboxQuestionSets)
		.where(
			and(
				ofApplication(officeId, applicationId),
				inArray(sandboxQuestionSets.outcome, ['failed', 'late']),
				gte(sandboxQuestionSets.answeredAt, new Date(now.getTime() - LOCK_WINDOW_MS))
			)
		);
	return (row?.n ?? 0) >= MAX_FAILED_ATTEMPTS;
}

export async function insertQuestionSet(tx: Tx, row: typeof sandboxQuestionSets.$inferInsert) {
	await tx.insert(sandboxQuestionSets).values(row).onConflictDoNothing();
}

export async function getQuestionSet(tx: Tx, id: string): Promise<QuestionSetRow | undefined> {
	const [row] = await tx.select().from(sandboxQuestionSets).where(eq(sandboxQuestionSets.id, id));
	return row;
}

/** The most recently issued set of an application: what the merchant has on screen. */
export async function latestQuestionSet(
	tx: Tx,
	officeId: number,
	applicationId: number
): Promise<QuestionSetRow | undefined> {
	const [row] = await tx
		.select()
		.from(sandboxQuestionSets)
		.where(ofApplication(officeId, applicationId))
		.orderBy(desc(sandboxQuestionSets.createdAt))
		.limit(1);
	return row;
}

/**
 * Records the outcome of a set, once: false when another request answered it first (two
 * instances may receive the same answers at the same moment).
 */
export async function settle(
	tx: Tx,
	id: string,
	outcome: SandboxIdentityOutcome,
	at: Date
): Promise<boolean> {
	const rows = await tx
		.update(sandboxQuestionSets)
		.set({ outcome, answeredAt: at })
		.where(and(eq(sandboxQuestionSets.id, id), isNull(sandboxQuestionSets.answeredAt)))
		.returning({ id: sandboxQuestionSets.id });
	return rows.length === 1;
}
