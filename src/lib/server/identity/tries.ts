import type { AttemptOutcome } from '$lib/server/db/schema';

/** Answers that arrive this long after the deadline were sent in time over a slow network. */
export const GRACE_MS = 3_000;

/**
 * Whether an attempt is a try the merchant has lost, in memory, as the console reads its facts: a
 * set answered wrong or too late, or one whose questions were shown and whose time is up, though
 * nobody has closed it yet (the merchant left; it is closed as late when they come back). The
 * statement in attempts.ts (`triesCounted`) counts these in SQL, and also a set whose answers are
 * with the bureau, so that no further set starts meanwhile; that one may yet pass, so it is no
 * lost try here.
 */
export function lostTry(
	a: { outcome: AttemptOutcome; shown: boolean; deadlineAt: Date },
	now: Date
): boolean {
	if (a.outcome === 'failed' || a.outcome === 'late') return true;
	return a.outcome === 'pending' && a.shown && a.deadlineAt.getTime() < now.getTime() - GRACE_MS;
}
