import type { Cookies } from '@sveltejs/kit';
import { and, desc, eq, isNull, ne, or, sql, type Column, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { AppContext } from '$lib/server/app';
import { appendAudit, holdApplication, type AuditInput } from '$lib/server/audit/audit';
import { hashToken, isTokenShaped, newToken } from '$lib/server/crypto/tokens';
import type { Db, Tx } from '$lib/server/db';
import { preparedPer } from '$lib/server/db/prepared';
import { handovers, signingSessions, type LockReason } from '$lib/server/db/schema';
import type { RequestMeta } from '$lib/server/http/meta';
import { serverIdleMs, touchEveryMs } from '$lib/inperson';
import { repAuditName } from '$lib/server/console/links';
import { endLinks } from '$lib/server/links/ending';
import { isDecided } from '$lib/server/onboarding';
import type { SignedInRep } from '$lib/server/reps/session';
import { findApplication } from '$lib/server/signing/application';
import { sessionEvent } from '$lib/server/signing/event';
import { newSessionSecret, sessionIsOpen, type SigningSession } from '$lib/server/signing/session';
import {
	startSigningSession,
	type InPersonAttestation,
	type StartRefusal
} from '$lib/server/signing/start';

export type Handover = typeof handovers.$inferSelect;

/** The tablet's own cookie: sent to every path, so /rep and /sign both find the hand-over. */
export const TABLET_COOKIE = 'tablet';

/** The lock screen: the one page a locked tablet shows. */
export const LOCK_PATH = '/rep/lock';

export interface HandOver {
	rep: SignedInRep;
	applicationId: number;
	idType: string | null;
	idLast4: string | null;
	meta: RequestMeta;
}

export type HandOverResult =
	| { ok: true; signingSecret: string; tabletSecret: string; session: SigningSession }
	| { ok: false; reason: StartRefusal };

/**
 * The merchant's earlier in-person session of this application, if it can go on: a later
 * hand-over picks up where the rep took the tablet back. One that ended in a decision or in a
 * decline before identity is over: a merchant who changes their mind starts afresh.
 */
async function resumable(ctx: AppContext, rep: SignedInRep, applicationId: number, now: Date) {
	const [last] = await ctx.db
		.select()
		.from(signingSessions)
		.where(
			and(
				eq(signingSessions.officeId, rep.officeId),
				eq(signingSessions.applicationId, applicationId),
				eq(signingSessions.channel, 'in_person'),
				isNull(signingSessions.closedAt),
				isNull(signingSessions.decisionId),
				isNull(signingSessions.declineId)
			)
		)
		.orderBy(desc(signingSessions.createdAt))
		.limit(1);
	return last && sessionIsOpen(last, null, ctx.config.SESSION_IDLE_MINUTES, now) ? last : null;
}

/**
 * "Hand to merchant": starts (or resumes) the application's in-person signing session through
 * the signing domain's one way in, and ties this tablet to it. The rep's attestation goes in the
 * trail as evidence/facts.ts reads it.
 */
export async function handOver(
	ctx: AppContext,
	input: HandOver,
	now = new Date()
): Promise<HandOverResult> {
	const { rep, applicationId, meta } = input;
	const inPerson: InPersonAttestation = {
		repId: rep.id,
		repNo: rep.repNo,
		repName: rep.name,
		photoIdChecked: true,
		idType: input.idType,
		idLast4: input.idLast4
	};
	let signingSecret: string;
	let session: SigningSession;
	const earlier = await resumable(ctx, rep, applicationId, now);
	if (earlier) {
		let item;
		try {
			item = await findApplication(ctx, rep.officeId, applicationId, { fresh: true });
		} catch {
			return { ok: false, reason: 'unavailable' };
		}
		if (!item) return { ok: false, reason: 'not_found' };
		if (isDecided(item)) return { ok: false, reason: 'decided' };
		// A new secret: whatever held the old cookie holds nothing now.
		const fresh = newSessionSecret();
		signingSecret = fresh.secret;
		session = { ...earlier, tokenHash: fresh.tokenHash, lastSeenAt: now };
		await ctx.db.transaction(async (tx) => {
			await tx
				.update(signingSessions)
				.set({ tokenHash: fresh.tokenHash, lastSeenAt: now })
				.where(eq(signingSessions.id, earlier.id));
			await appendAudit(tx, {
				...sessionEvent(session, meta),
				rep: rep.id,
				at: now,
				type: 'session.handed_over',
				data: { inPerson }
			});
		});
	} else {
		const started = await startSigningSession(
			ctx,
			{
				officeId: rep.officeId,
				applicationId,
				channel: 'in_person',
				linkId: null,
				repId: rep.id,
				repNo: rep.repNo,
				inPerson,
				meta
			},
			now
		);
		if (!started.ok) return { ok: false, reason: started.reason };
		signingSecret = started.secret;
		session = started.session;
	}
	// One device at a time: a tablet another rep session handed over for this application (a
	// colleague's, or the rep's own on another device) locks, and the merchant goes on here. Its
	// key led to the signing session by the session's id, which the new secret above leaves as
	// it was; locked, it opens only to its own rep's password, as after "Return to rep".
	const elsewhere = await ctx.db
		.select()
		.from(handovers)
		.where(
			and(
				eq(handovers.officeId, rep.officeId),
				eq(handovers.applicationId, applicationId),
				ne(handovers.repSessionId, rep.sessionId),
				isNull(handovers.lockedAt),
				isNull(handovers.endedAt)
			)
		);
	for (const h of elsewhere) await lockHandover(ctx.db, h, 'moved', { now });
	const tabletSecret = newToken();
	await ctx.db.transaction(async (tx) => {
		// One tablet, one hand-over: anything this rep session still held open ends here.
		await tx
			.update(handovers)
			.set({ endedAt: now })
			.where(and(eq(handovers.repSessionId, rep.sessionId), isNull(handovers.endedAt)));
		await tx.insert(handovers).values({
			tokenHash: hashToken(tabletSecret),
			repSessionId: rep.sessionId,
			repId: rep.id,
			signingSessionId: session.id,
			officeId: rep.officeId,
			applicationId,
			startedAt: now,
			lastSeenAt: now
		});
		// Taken last, as a new link takes it after the links' rows (links.ts, tabletAway): a link
		// made at this moment either sees this row and is refused, or commits first and ends below.
		await holdApplication(tx, rep.officeId, applicationId);
	});
	// One way in at a time: the application's link ends here, with its sessions and any questions
	// they had open, so that nobody else goes on with it beside the merchant at the counter. After
	// the tablet's row (above): no link is made from then on. The rep can send a new link once the
	// tablet is back, if the merchant would rather finish at home.
	await endLinks(
		ctx,
		{
			officeId: rep.officeId,
			applicationId,
			rep: repAuditName(rep),
			by: `rep:${rep.id}`,
			meta,
			reason: 'in_person'
		},
		now
	);
	return { ok: true, signingSecret, tabletSecret, session };
}

export interface HandoverKeys {
	tabletSecret?: string;
	repSessionId?: string;
	signingSessionId?: string;
}

/**
 * The id of the rep session's open hand-over (the newest), correlated with `repSessionId`: a
 * rep page reads it with the rep's session, in that statement (reps/session.ts), and keeps it
 * with keepHandover as findHandover would.
 */
export const openHandoverIdOf = (db: Tx, repSessionId: Column) =>
	newestOpen(
		db.select({ id: handovers.id }).from(handovers).$dynamic(),
		eq(handovers.repSessionId, repSessionId)
	);

/** The newest open hand-over of those `match` finds: the rule both look-ups share. */
function newestOpen<T extends PgSelect>(q: T, match: SQL) {
	return q
		.where(and(isNull(handovers.endedAt), match))
		.orderBy(desc(handovers.startedAt))
		.limit(1);
}

/**
 * Every in-person signing page, and a rep page on a tablet that has its own cookie, runs this
 * statement (see preparedPer). A key not given is bound as null, which `=` matches with nothing.
 */
const handoverQuery = preparedPer((db) =>
	newestOpen(
		db.select().from(handovers).$dynamic(),
		or(
			eq(handovers.tokenHash, sql.placeholder('tokenHash')),
			eq(handovers.repSessionId, sql.placeholder('repSessionId')),
			eq(handovers.signingSessionId, sql.placeholder('signingSessionId'))
		)!
	).prepare('find_handover')
);

/**
 * The open hand-over this browser is part of: found by any one of its three keys, so clearing a
 * cookie does not free the tablet. A hand-over left untouched past the idle limit is locked here,
 * on the server, whatever the browser's timer did; `touch` (a signing page) restarts the count.
 */
export async function findHandover(
	db: Db,
	keys: HandoverKeys,
	rules: { idleSeconds: number; touch: boolean },
	now = new Date()
): Promise<Handover | undefined> {
	const tokenHash = tabletKeyHash(keys.tabletSecret);
	const repSessionId = keys.repSessionId || null;
	const signingSessionId = keys.signingSessionId || null;
	if (!tokenHash && !repSessionId && !signingSessionId) return undefined;
	const [row] = await handoverQuery(db).execute({ tokenHash, repSessionId, signingSessionId });
	return keepHandover(db, row, rules, now);
}

/**
 * A hand-over untouched past the idle limit: the tablet has locked itself, and the server locks
 * the row at its next request. The console (console/state.ts) reads it by the same rule.
 */
export const handoverIdle = (lastSeenAt: Date, idleSeconds: number, now: Date) =>
	now.getTime() - lastSeenAt.getTime() > serverIdleMs(idleSeconds);

/**
 * findHandover's rules on a hand-over already read (with the rep's session): past the idle limit
 * it is locked; `touch` restarts the count.
 */
export async function keepHandover(
	db: Db,
	row: Handover | undefined,
	rules: { idleSeconds: number; touch: boolean },
	now = new Date()
): Promise<Handover | undefined> {
	if (!row || row.lockedAt) return row;
	if (handoverIdle(row.lastSeenAt, rules.idleSeconds, now))
		return lockHandover(db, row, 'idle', { now, idleSeconds: rules.idleSeconds });
	const idle = now.getTime() - row.lastSeenAt.getTime();
	if (rules.touch && idle > touchEveryMs(rules.idleSeconds)) {
		await db.update(handovers).set({ lastSeenAt: now }).where(eq(handovers.id, row.id));
		return { ...row, lastSeenAt: now };
	}
	return row;
}

export interface LockDetails {
	now?: Date;
	/** The device's request, when the lock is its own doing ("Return to rep"); else none. */
	meta?: RequestMeta;
	/** The idle limit that ran out, for the trail of an `idle` lock. */
	idleSeconds?: number;
}

/**
 * The tablet shows the lock screen from now on; the signing session stays for a later hand-over.
 * The first lock, and only it, goes in the application's trail (`device.locked`), in the same
 * transaction: a reviewer reads when the device left the merchant's hands, and why.
 */
export async function lockHandover(
	db: Db,
	h: Handover,
	reason: LockReason,
	details: LockDetails = {}
): Promise<Handover> {
	if (h.lockedAt) return h;
	const now = details.now ?? new Date();
	const row = await db.transaction(async (tx) => {
		const [locked] = await tx
			.update(handovers)
			.set({ lockedAt: now, lockReason: reason })
			.where(and(eq(handovers.id, h.id), isNull(handovers.lockedAt)))
			.returning();
		if (locked) {
			await appendAudit(tx, {
				...handoverEvent(h, details.meta),
				at: now,
				type: 'device.locked',
				data:
					reason === 'idle' && details.idleSeconds !== undefined
						? { reason, idleSeconds: details.idleSeconds }
						: { reason }
			});
		}
		return locked;
	});
	// Another request locked it first: that lock, and its reason, stand.
	if (!row) {
		const [current] = await db.select().from(handovers).where(eq(handovers.id, h.id));
		return current ?? { ...h, lockedAt: now, lockReason: reason };
	}
	return row;
}

/** The rep's password opened the lock: the tablet is theirs again, and the trail says so. */
export async function endHandover(
	db: Db,
	h: Handover,
	rep: { repNo: number; name: string },
	meta: RequestMeta,
	now = new Date()
): Promise<void> {
	await db.transaction(async (tx) => {
		const [ended] = await tx
			.update(handovers)
			.set({ endedAt: now })
			.where(and(eq(handovers.id, h.id), isNull(handovers.endedAt)))
			.returning({ id: handovers.id });
		if (!ended) return;
		await appendAudit(tx, {
			...handoverEvent(h, meta),
			at: now,
			type: 'device.unlocked',
			data: { repNo: rep.repNo, repName: rep.name }
		});
	});
}

/**
 * An in-person event about the device itself: its signing session's own fields, as every event
 * of the session carries them, with the device's request when there is one.
 */
function handoverEvent(h: Handover, meta?: RequestMeta): Omit<AuditInput, 'type'> {
	const session = {
		id: h.signingSessionId,
		officeId: h.officeId,
		applicationId: h.applicationId,
		channel: 'in_person' as const,
		repId: h.repId
	};
	return sessionEvent(session, meta ?? { ip: null, userAgent: null });
}

/** The hash a tablet's cookie is looked up by; none for no cookie, or one of the wrong shape. */
const tabletKeyHash = (secret: string | undefined) =>
	secret && isTokenShaped(secret) ? hashToken(secret) : null;

/** Whether `secret` (the tablet's cookie, if any) is the hand-over's key. */
export const holdsTabletKey = (h: Handover, secret: string | undefined) =>
	tabletKeyHash(secret) === h.tokenHash;

/**
 * A new tablet key for a hand-over found by its rep's session, in the browser that handed over
 * (hooks.server.ts), whose tablet cookie is gone or no longer the key (two such requests at once
 * each write one, and the browser may keep the other's: the next repairs it). The old key opens
 * nothing after.
 */
export async function reissueTabletKey(db: Db, h: Handover): Promise<string> {
	const secret = newToken();
	await db
		.update(handovers)
		.set({ tokenHash: hashToken(secret) })
		.where(eq(handovers.id, h.id));
	return secret;
}

export function setTabletCookie(cookies: Cookies, url: URL, secret: string): void {
	cookies.set(TABLET_COOKIE, secret, {
		path: '/',
		httpOnly: true,
		sameSite: 'strict',
		secure: url.protocol === 'https:'
	});
}
