import { eq } from 'drizzle-orm';
import type { AppContext } from '$lib/server/app';
import type { Db } from '$lib/server/db';
import { reps } from '$lib/server/db/schema';
import type { RequestMeta } from '$lib/server/http/meta';
import { createRepSession } from '$lib/server/reps/session';
import {
	checkRepPassword,
	passwordPaused,
	signInRules,
	type WrongPassword
} from '$lib/server/reps/signin';
import { endHandover, recordUnlockRefused, type Handover } from './handover';

export type UnlockResult =
	/** `repSecret`: a new rep session when the tablet's own one has ended (or its cookie went). */
	| { ok: true; repSecret: string | null }
	| WrongPassword
	| { ok: false; reason: 'locked'; retryAfterSeconds: number };

/** The rep who handed the tablet over, whose password alone unlocks it. */
export async function handoverRep(db: Db, h: Handover) {
	const [rep] = await db
		.select({ email: reps.email, repNo: reps.repNo, name: reps.name })
		.from(reps)
		.where(eq(reps.id, h.repId));
	return rep;
}

/** The count of wrong passwords at this hand-over's lock screen: its own, not the account's. */
const unlockKey = (h: Handover) => `unlock:handover:${h.id}`;

/**
 * Whether this tablet's unlock is paused after wrong passwords now, for how many seconds more
 * (null if not): the lock screen says so when it is shown, not only at the next try.
 */
export async function unlockPaused(
	ctx: AppContext,
	h: Handover,
	repEmail: string,
	meta: RequestMeta,
	now = new Date()
): Promise<number | null> {
	return passwordPaused(
		ctx.db,
		signInRules(ctx.config),
		{ email: repEmail, limitKey: unlockKey(h) },
		meta,
		now
	);
}

/**
 * The lock screen's "Unlock": only the password of the rep who handed the tablet over opens it.
 * Wrong ones pause this tablet's unlock as wrong ones pause a sign-in (the same number, the same
 * pause, and the same count by address), counted for this hand-over alone: a merchant trying
 * passwords at the counter must not lock the rep out of signing in on their own phone.
 */
export async function unlockHandover(
	ctx: AppContext,
	h: Handover,
	input: { password: string; repSessionOpen: boolean },
	meta: RequestMeta,
	now = new Date()
): Promise<UnlockResult> {
	const rep = await handoverRep(ctx.db, h);
	// No rep on record (removed since): nothing was counted, and no password can open it.
	if (!rep) return { ok: false, reason: 'invalid', left: Infinity };
	const checked = await checkRepPassword(
		ctx.db,
		signInRules(ctx.config),
		{ email: rep.email, password: input.password, limitKey: unlockKey(h) },
		meta,
		now
	);
	// Not a disabled rep's own password, which is right but opens nothing: no wrong one was typed.
	if (!checked.ok && checked.reason === 'invalid' && !checked.disabled) {
		await recordUnlockRefused(ctx.db, h, checked.left, meta, now);
	}
	if (!checked.ok) return checked;
	await endHandover(ctx.db, h, rep, meta, now);
	const repSecret = input.repSessionOpen
		? null
		: await createRepSession(ctx.db, checked.rep.id, meta, now);
	return { ok: true, repSecret };
}
