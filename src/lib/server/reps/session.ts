import type { Cookies } from '@sveltejs/kit';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { hashToken, isTokenShaped, newToken } from '$lib/server/crypto/tokens';
import type { Db } from '$lib/server/db';
import { preparedPer } from '$lib/server/db/prepared';
import { handovers, repSessions, reps } from '$lib/server/db/schema';
import { openHandoverIdOf, type Handover } from '$lib/server/inperson/handover';
import type { RequestMeta } from '$lib/server/http/meta';

export const REP_COOKIE = 'rep_session';

/** What a rep page knows of who is signed in: never the password hash. */
export interface SignedInRep {
	sessionId: string;
	id: string;
	officeId: number;
	repNo: number;
	name: string;
	email: string;
	phone: string | null;
	/** The operator set the password: nothing but the password page until the rep chooses one. */
	passwordTemporary: boolean;
}

export interface RepSessionRules {
	idleMinutes: number;
	maxHours: number;
	/** A page's refresh nobody asked for (UNATTENDED_COOKIE): read, but not counted as activity. */
	unattended?: boolean;
}

/** A fresh session (a new id at every sign-in); the secret goes in the cookie, its hash here. */
export async function createRepSession(db: Db, repId: string, meta: RequestMeta, now = new Date()) {
	const secret = newToken();
	await db.insert(repSessions).values({
		tokenHash: hashToken(secret),
		repId,
		ip: meta.ip,
		userAgent: meta.userAgent,
		createdAt: now,
		lastSeenAt: now
	});
	return secret;
}

/**
 * Every rep page request runs this statement (see preparedPer), with the session's open
 * hand-over, if any: the tablet handle's look-up by the rep's session in the same statement. As
 * a statement of its own it held the console's list to about four fifths of its requests/s on
 * PGlite (tests/bench/NOTES.md §10).
 */
const resumeQuery = preparedPer((db) =>
	db
		.select({ session: repSessions, rep: reps, handover: handovers })
		.from(repSessions)
		.innerJoin(reps, eq(reps.id, repSessions.repId))
		.leftJoin(handovers, sql`${handovers.id} = (${openHandoverIdOf(db, repSessions.id)})`)
		.where(
			and(eq(repSessions.tokenHash, sql.placeholder('tokenHash')), isNull(repSessions.closedAt))
		)
		.prepare('resume_rep_session')
);

/** A resumed rep session, and its device's open hand-over (see keepHandover), if any. */
export interface ResumedRep {
	rep: SignedInRep;
	handover: Handover | null;
}

/**
 * The signed-in rep behind a cookie, if the session is open, neither idle nor too old, and the
 * account not disabled. Activity is written at most once a minute: a page that refreshes itself
 * would otherwise write on every poll; and a refresh nobody asked for is no activity at all.
 */
export async function resumeRepSession(
	db: Db,
	secret: string | undefined,
	rules: RepSessionRules,
	now = new Date()
): Promise<ResumedRep | undefined> {
	if (!secret || !isTokenShaped(secret)) return undefined;
	const [row] = await resumeQuery(db).execute({ tokenHash: hashToken(secret) });
	if (!row || repSessionEnd(row.session, row.rep, rules, now)) return undefined;
	const { session, rep, handover } = row;
	const idleMs = rules.idleMinutes * 60_000;
	if (
		!rules.unattended &&
		now.getTime() - session.lastSeenAt.getTime() > Math.min(60_000, idleMs / 4)
	) {
		await db.update(repSessions).set({ lastSeenAt: now }).where(eq(repSessions.id, session.id));
	}
	return {
		rep: {
			sessionId: session.id,
			id: rep.id,
			officeId: rep.officeId,
			repNo: rep.repNo,
			name: rep.name,
			email: rep.email,
			phone: rep.phone,
			passwordTemporary: rep.passwordTemporary
		},
		handover
	};
}

/**
 * Why the session a cookie names is over, for the sign-in page's words, and whose it was: read
 * only when resumeRepSession found none (a cookie left from before), so no page a signed-in rep
 * opens pays for it. `password`: closed by a new password (the rep's own, set in another
 * browser, or the operator's reset), which a cookie outlives; `closed`: signed out, which the
 * cookie outlives only in a race with a sign-out in another tab. Null when the cookie names no
 * session.
 */
export type RepSessionEnd = 'idle' | 'max' | 'disabled' | 'password' | 'closed';

export interface EndedRepSession {
	reason: RepSessionEnd;
	/** The rep whose session it was: what an action it refused held is kept for them (console/undone.ts). */
	repId: string;
	officeId: number;
}

export async function whyRepSessionEnded(
	db: Db,
	secret: string | undefined,
	rules: RepSessionRules,
	now = new Date()
): Promise<EndedRepSession | null> {
	if (!secret || !isTokenShaped(secret)) return null;
	const [row] = await db
		.select({
			session: repSessions,
			rep: { disabledAt: reps.disabledAt, passwordChangedAt: reps.passwordChangedAt },
			officeId: reps.officeId
		})
		.from(repSessions)
		.innerJoin(reps, eq(reps.id, repSessions.repId))
		.where(eq(repSessions.tokenHash, hashToken(secret)));
	const reason = row && repSessionEnd(row.session, row.rep, rules, now);
	return reason ? { reason, repId: row.session.repId, officeId: row.officeId } : null;
}

/** Whether, and why, a session is over: the one statement of the rules both reads above apply. */
function repSessionEnd(
	session: Pick<typeof repSessions.$inferSelect, 'closedAt' | 'createdAt' | 'lastSeenAt'>,
	rep: Pick<typeof reps.$inferSelect, 'disabledAt' | 'passwordChangedAt'>,
	rules: RepSessionRules,
	now: Date
): RepSessionEnd | null {
	if (rep.disabledAt) return 'disabled';
	// A new password closes the rep's sessions in the same transaction, at the same instant.
	if (session.closedAt) {
		return session.closedAt.getTime() === rep.passwordChangedAt.getTime() ? 'password' : 'closed';
	}
	if (now.getTime() - session.createdAt.getTime() > rules.maxHours * 3_600_000) return 'max';
	return now.getTime() - session.lastSeenAt.getTime() > rules.idleMinutes * 60_000 ? 'idle' : null;
}

/** Sign-out: the session ends on the server, whatever becomes of the cookie. */
export async function endRepSession(db: Db, secret: string | undefined, now = new Date()) {
	if (!secret || !isTokenShaped(secret)) return;
	await db
		.update(repSessions)
		.set({ closedAt: now })
		.where(and(eq(repSessions.tokenHash, hashToken(secret)), isNull(repSessions.closedAt)));
}

export function setRepCookie(cookies: Cookies, url: URL, secret: string): void {
	cookies.set(REP_COOKIE, secret, {
		path: '/rep',
		httpOnly: true,
		sameSite: 'lax',
		secure: url.protocol === 'https:'
	});
}
