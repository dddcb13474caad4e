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
import { newSessionSecret, resumableOf, type SigningSession } from '$lib/server/signing/session';
import {
	openSession,
	startChecks,
	type InPersonAttestation,
	type StartRefusal,
	type StartSigning
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
	/**
	 * The application's open hand-overs (openHandovers) read before the rep's page was judged
	 * against what it showed: one not among them was handed over since, a colleague's at the
	 * counter, and is not taken from the merchant unseen (`moved`). Without it, whatever tablet
	 * there is locks, as the button always did.
	 */
	known?: string[];
}

/**
 * `moved`: a tablet was handed over since the rep's page was judged (see HandOver.known).
 * `changed`: the session it was to pick up ended meanwhile, in a decision or a decline on the
 * tablet the merchant has.
 */
export type HandOverResult =
	| { ok: true; signingSecret: string; tabletSecret: string; session: SigningSession }
	| { ok: false; reason: StartRefusal | 'moved' | 'changed' };

/** Thrown inside handOver's transaction to undo it, for that reason. */
class NotHandedOver extends Error {
	constructor(readonly reason: 'moved' | 'changed') {
		super(reason);
	}
}

/**
 * The earlier session's row, locked and read again (the merchant may have gone on since it was
 * found), if it can still be picked up: taken before the
 * application's lock, the order every writer of a session takes them in (a decision, a decline,
 * the terms shown, consent: each writes its row, then the trail).
 */
async function claimSession(tx: Tx, id: string): Promise<SigningSession> {
	const [still] = await tx
		.select()
		.from(signingSessions)
		.where(
			and(
				eq(signingSessions.id, id),
				isNull(signingSessions.closedAt),
				isNull(signingSessions.decisionId),
				isNull(signingSessions.declineId)
			)
		)
		.for('update');
	if (!still) throw new NotHandedOver('changed');
	return still;
}

/**
 * The application's hand-overs still open and not locked, whichever rep session made them: the
 * tablets that may be in a merchant's hands. Read before a rep's page is judged (HandOver.known).
 */
export async function openHandovers(
	db: Tx,
	officeId: number,
	applicationId: number,
	exceptRepSession?: string
): Promise<Handover[]> {
	return db
		.select()
		.from(handovers)
		.where(
			and(
				eq(handovers.officeId, officeId),
				eq(handovers.applicationId, applicationId),
				exceptRepSession ? ne(handovers.repSessionId, exceptRepSession) : undefined,
				isNull(handovers.lockedAt),
				isNull(handovers.endedAt)
			)
		);
}

/**
 * The merchant's earlier in-person session of this application, if it can go on (resumableOf):
 * a later hand-over picks up where the rep took the tablet back.
 */
async function resumable(ctx: AppContext, rep: SignedInRep, applicationId: number, now: Date) {
	const sessions = await ctx.db
		.select()
		.from(signingSessions)
		.where(
			and(
				eq(signingSessions.officeId, rep.officeId),
				eq(signingSessions.applicationId, applicationId),
				eq(signingSessions.channel, 'in_person')
			)
		);
	return resumableOf(sessions, ctx.config.SESSION_IDLE_MINUTES, now);
}

/**
 * A hand-over that picks up the merchant's earlier session (resumable): a new secret, so that
 * whatever held the old cookie holds nothing now, and the rep's attestation in the trail.
 */
async function resumeIn(
	tx: Tx,
	earlier: SigningSession,
	inPerson: InPersonAttestation,
	meta: RequestMeta,
	now: Date
): Promise<{ secret: string; session: SigningSession }> {
	const fresh = newSessionSecret();
	const session = { ...earlier, tokenHash: fresh.tokenHash, lastSeenAt: now };
	await tx
		.update(signingSessions)
		.set({ tokenHash: fresh.tokenHash, lastSeenAt: now })
		.where(eq(signingSessions.id, earlier.id));
	await appendAudit(tx, {
		...sessionEvent(session, meta),
		rep: inPerson.repId,
		at: now,
		type: 'session.handed_over',
		data: { inPerson }
	});
	return { secret: fresh.secret, session };
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
	const start: StartSigning = {
		officeId: rep.officeId,
		applicationId,
		channel: 'in_person',
		linkId: null,
		repId: rep.id,
		repNo: rep.repNo,
		inPerson,
		meta
	};
	// Checked first, writing nothing; then the session, the tablet's row and the other tablets'
	// locks are written together, or (a tablet handed over since) not at all.
	const earlier = await resumable(ctx, rep, applicationId, now);
	let open: (
		tx: Tx,
		claimed: SigningSession | null
	) => Promise<{ secret: string; session: SigningSession }>;
	if (earlier) {
		let item;
		try {
			item = await findApplication(ctx, rep.officeId, applicationId, { fresh: true });
		} catch {
			return { ok: false, reason: 'unavailable' };
		}
		if (!item) return { ok: false, reason: 'not_found' };
		if (isDecided(item)) return { ok: false, reason: 'decided' };
		open = (tx, claimed) => resumeIn(tx, claimed ?? earlier, inPerson, meta, now);
	} else {
		const checked = await startChecks(ctx, start);
		if (!checked.ok) return { ok: false, reason: checked.reason };
		open = (tx) => openSession(tx, start, checked.item, now, checked.draft);
	}
	const tabletSecret = newToken();
	let opened: { secret: string; session: SigningSession };
	try {
		opened = await ctx.db.transaction(async (tx) => {
			const claimed = earlier ? await claimSession(tx, earlier.id) : null;
			// The application's lock before any hand-over's row, as every writer of hand-overs takes
			// it (lockIn, endHandover), so two of them for one application do not wait on each other.
			// (The rows this rep session still holds open, ended below, may be another
			// application's; the hooks keep such a session on its tablet, where it cannot hand over.)
			// A link made at this moment (links.ts, tabletAway) either commits first and ends below,
			// or waits, then sees this tablet's row and is refused; of two hand-overs at once, the
			// second reads the first's row here.
			await holdApplication(tx, rep.officeId, applicationId);
			// One device at a time: a tablet another rep session handed over for this application (a
			// colleague's, or the rep's own on another device) locks below, and the merchant goes on
			// here. One handed over since the rep's page was judged is not taken unseen.
			const elsewhere = await openHandovers(tx, rep.officeId, applicationId, rep.sessionId);
			const known = input.known;
			if (known && elsewhere.some((h) => !known.includes(h.id))) throw new NotHandedOver('moved');
			const { secret, session } = await open(tx, claimed);
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
			// The other tablets' keys led to the signing session by the session's id, which a new
			// secret leaves as it was; locked, each opens only to its own rep's password, as after
			// "Return to rep".
			for (const h of elsewhere) await lockIn(tx, h, 'moved', { now });
			return { secret, session };
		});
	} catch (e) {
		if (e instanceof NotHandedOver) return { ok: false, reason: e.reason };
		throw e;
	}
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
	return { ok: true, signingSecret: opened.secret, tabletSecret, session: opened.session };
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
	const row = await db.transaction((tx) => lockIn(tx, h, reason, { ...details, now }));
	// Another request locked it first: that lock, and its reason, stand.
	if (!row) {
		const [current] = await db.select().from(handovers).where(eq(handovers.id, h.id));
		return current ?? { ...h, lockedAt: now, lockReason: reason };
	}
	return row;
}

/** lockHandover's writes, in a transaction: the row locked, or none if it already was. */
async function lockIn(
	tx: Tx,
	h: Handover,
	reason: LockReason,
	details: LockDetails & { now: Date }
): Promise<Handover | undefined> {
	const { now } = details;
	await holdApplication(tx, h.officeId, h.applicationId);
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
		await holdApplication(tx, h.officeId, h.applicationId);
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
 * A wrong password at the lock screen: in the trail, so that a reviewer reads that someone at
 * the device tried to open it (the merchant, say, or the rep mistyping), and when unlocking
 * paused (`left` 0). Presses while it is paused are refused unread, and are not recorded.
 */
export async function recordUnlockRefused(
	db: Db,
	h: Handover,
	left: number,
	meta: RequestMeta,
	now = new Date()
): Promise<void> {
	await appendAudit(db, {
		...handoverEvent(h, meta),
		at: now,
		type: 'device.unlock_refused',
		data: { left }
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

const tabletCookieOptions = (url: URL) =>
	({ path: '/', httpOnly: true, sameSite: 'strict', secure: url.protocol === 'https:' }) as const;

export function setTabletCookie(cookies: Cookies, url: URL, secret: string): void {
	cookies.set(TABLET_COOKIE, secret, tabletCookieOptions(url));
}

/** The tablet's cookie as a `set-cookie` value, for a response made outside kit's resolve. */
export const tabletCookieHeader = (cookies: Cookies, url: URL, secret: string) =>
	cookies.serialize(TABLET_COOKIE, secret, tabletCookieOptions(url));
