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

/**
 * When a try was lost, which is when it starts to count and when a lock it completes begins: the
 * bureau's verdict on answers judged wrong; for any other try, its set's deadline (its time ran
 * out then, or its answers were in by then). `lostAtSql` in attempts.ts is the same in SQL.
 */
export function lostAt(a: {
	outcome: AttemptOutcome;
	deadlineAt: Date;
	finishedAt: Date | null;
}): Date {
	return a.outcome === 'failed' && a.finishedAt ? a.finishedAt : a.deadlineAt;
}

export interface TryRules {
	max: number;
	windowMs: number;
}

/**
 * Where an application stands, from the times its tries were lost (lostAt, in milliseconds; the
 * last two windows' are enough): the tries in the window, and until when it is locked. One rule,
 * for the merchant's page, the lock's event and the rep's console alike: the try that brings the
 * count of the window before it to the limit locks the application for a full window from then.
 * (A rolling count alone would lift the lock a window after the older try, sooner than the
 * lock's own record and the service say.) No try starts while locked, so once a lock lifts the
 * window holds none of the tries that made it.
 */
export function tryStanding(
	lost: number[],
	now: number,
	rules: TryRules
): { used: number; lockedUntil: number | null } {
	const used = lost.filter((t) => t > now - rules.windowMs).length;
	let lockedUntil: number | null = null;
	for (const t of lost) {
		const before = lost.filter((u) => u > t - rules.windowMs && u <= t).length;
		if (before >= rules.max && t + rules.windowMs > now)
			lockedUntil = Math.max(lockedUntil ?? 0, t + rules.windowMs);
	}
	return { used, lockedUntil };
}
