import type { Cookies } from '@sveltejs/kit';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { hashToken, isTokenShaped, newToken } from '$lib/server/crypto/tokens';
import type { Db, Tx } from '$lib/server/db';
import { preparedPer } from '$lib/server/db/prepared';
import { signingLinks, signingSessions, type Channel, type SignDraft } from '$lib/server/db/schema';
import { chainHeadOf } from '$lib/server/evidence/chain-head';
import { activeLinksOf, howRevoked, type Revoked } from '$lib/server/links/links';

export type SigningSession = typeof signingSessions.$inferSelect;

export const SESSION_COOKIE = 'signing_session';
/** However active, a signing session does not outlive a working day. */
export const MAX_SESSION_MS = 12 * 3_600_000;

export interface NewSession {
	channel: Channel;
	linkId: string | null;
	repId: string | null;
	officeId: number;
	applicationId: number;
	/** The application's `RepNo`, so the merchant's pages can name the rep. */
	repNo?: number | null;
	businessName: string;
	ownerFirstName: string;
	ownerLastName: string;
	ownerEmail: string;
	ip: string | null;
	userAgent: string | null;
	/** The sign step's fields to start from (see draftLeftOn). */
	draft?: SignDraft | null;
}

/** A secret for the cookie and the hash the database keeps instead of it. */
export function newSessionSecret() {
	const secret = newToken();
	return { secret, tokenHash: hashToken(secret) };
}

/** Creates a session; the returned secret goes in the cookie, only its hash is stored. */
export async function createSession(tx: Tx, input: NewSession, now = new Date()) {
	const { secret, tokenHash } = newSessionSecret();
	const [row] = await tx
		.insert(signingSessions)
		.values({ ...input, tokenHash, createdAt: now, lastSeenAt: now })
		.returning();
	return { secret, session: row! };
}

/**
 * Where the browser sends the session's secret: the signing pages, and for a session opened from
 * a link the links' own pages (`/s/<token>`), so that Start pressed again in the same browser (a
 * second tab, the email's link opened again) goes on with the session it has rather than opening
 * another (sessionOnLink). A tablet handed over in person has no link to open. No other page ever
 * receives it.
 */
const SESSION_PATHS = ['/sign', '/s'] as const;

/** Gives the browser the secret of a session opened on `channel` (SESSION_PATHS). */
export function setSessionCookie(
	cookies: Cookies,
	url: URL,
	secret: string,
	channel: Channel
): void {
	for (const path of channel === 'link' ? SESSION_PATHS : SESSION_PATHS.slice(0, 1)) {
		cookies.set(SESSION_COOKIE, secret, {
			path,
			httpOnly: true,
			sameSite: 'strict',
			secure: url.protocol === 'https:'
		});
	}
}

/** Takes the session's secret back from the browser (a tablet unlocked by its rep). */
export function forgetSessionCookie(cookies: Cookies): void {
	for (const path of SESSION_PATHS) cookies.delete(SESSION_COOKIE, { path });
}

/**
 * How stale `lastSeenAt` may get: idle time is counted to this step (a tenth of the idle limit, at
 * most a minute), so that reading a page is not a write to the database every time.
 */
export function touchInterval(idleMinutes: number): number {
	return Math.min(60_000, idleMinutes * 6_000);
}

/**
 * A session and its link's withdrawal, by the hash in `column`, as a named prepared statement;
 * with `also`, further columns read in the same statement.
 */
function sessionByHash<Also extends Record<string, SQL>>(
	column: typeof signingSessions.tokenHash | typeof signingSessions.replacedTokenHash,
	name: string,
	also: Also = {} as Also
) {
	return preparedPer((db) =>
		db
			.select({ session: signingSessions, linkRevokedAt: signingLinks.revokedAt, ...also })
			.from(signingSessions)
			.leftJoin(signingLinks, eq(signingLinks.id, signingSessions.linkId))
			.where(eq(column, sql.placeholder('tokenHash')))
			.prepare(name)
	);
}

/** Every /sign request runs this statement (see preparedPer). */
const resumeQuery = sessionByHash(signingSessions.tokenHash, 'resume_signing_session');

/** The same, with the application's audit-chain head: the done step's PDFs (see chainHeadOf). */
const resumeWithHeadQuery = sessionByHash(
	signingSessions.tokenHash,
	'resume_signing_session_with_head',
	{ chainHead: chainHeadOf(signingSessions.officeId, signingSessions.applicationId) }
);

/** Read when no session has the cookie's hash: one whose secret identity replaced (markPassed). */
const replacedQuery = sessionByHash(signingSessions.replacedTokenHash, 'replaced_signing_session');

/**
 * Why a session a cookie names can no longer be used (see sessionEnd); `replaced`: the cookie
 * holds the secret the session had before identity passed, which a new one replaced.
 */
export type SessionEnd = 'closed' | 'link_revoked' | 'idle' | 'expired' | 'replaced';

/** A session that has ended: what its signing pages need to say why, and whom to ask. */
export interface EndedSession {
	end: SessionEnd;
	/** The session's row: what its sign step's form held when it ended is kept there (draft.ts). */
	sessionId: string;
	officeId: number;
	applicationId: number;
	repNo: number | null;
	linkId: string | null;
	channel: Channel;
	/** For a revoked link: how it came to end, and who ended it (see howRevoked). */
	revoked?: Revoked;
	/** A post from its sign step was kept for the next session on its link (keepEndedDraft). */
	kept?: boolean;
	/** Ended after it was finished: a decision (either way) or a decline before identity. */
	finished?: 'decided' | 'declined';
	/**
	 * Its link was made to be emailed: the way back is "the link from your email" (else the link
	 * as the merchant got it: copied into a message, the demo's). Read for the ends whose words
	 * send the merchant back to the link.
	 */
	emailed?: boolean;
}

/**
 * The session behind a cookie: open (and touched, so idle time restarts), or ended and why, or
 * nothing for a cookie that names no session. `withChainHead`: an open session comes with its
 * application's audit-chain head, read in the same statement (chainHeadOf).
 */
export async function findSession(
	db: Db,
	secret: string | undefined,
	idleMinutes: number,
	now = new Date(),
	{ withChainHead = false } = {}
): Promise<
	{ open: SigningSession; chainHead?: string | null } | { ended: EndedSession } | undefined
> {
	if (!secret || !isTokenShaped(secret)) return undefined;
	const tokenHash = hashToken(secret);
	let head: { chainHead?: string | null } = {};
	let found;
	if (withChainHead) {
		[found] = await resumeWithHeadQuery(db).execute({ tokenHash });
		if (found) head = { chainHead: found.chainHead };
	} else {
		[found] = await resumeQuery(db).execute({ tokenHash });
	}
	const row = found?.session;
	if (!found || !row) {
		// Only a cookie that names no session costs this second read.
		const [replaced] = await replacedQuery(db).execute({ tokenHash });
		if (!replaced) return undefined;
		const { session: s, linkRevokedAt } = replaced;
		const end = sessionEnd(s, linkRevokedAt, idleMinutes, now) ?? 'replaced';
		return { ended: await endedOf(db, s, end, now) };
	}
	const end = sessionEnd(row, found.linkRevokedAt, idleMinutes, now);
	if (end) return { ended: await endedOf(db, row, end, now) };
	if (now.getTime() - row.lastSeenAt.getTime() < touchInterval(idleMinutes)) {
		return { open: row, ...head };
	}
	await db.update(signingSessions).set({ lastSeenAt: now }).where(eq(signingSessions.id, row.id));
	return { open: { ...row, lastSeenAt: now }, ...head };
}

/** What the pages of an ended session need to say why (see EndedSession). */
async function endedOf(
	db: Db,
	s: SigningSession,
	end: SessionEnd,
	now: Date
): Promise<EndedSession> {
	const { officeId, applicationId, repNo, linkId, channel } = s;
	const revoked = end === 'link_revoked' && linkId ? await howRevoked(db, linkId, now) : undefined;
	const finished = s.decisionId ? 'decided' : s.declineId ? 'declined' : undefined;
	const backToLink = linkId && !finished && ['idle', 'expired', 'replaced'].includes(end);
	const [link] = backToLink
		? await db
				.select({ email: signingLinks.email })
				.from(signingLinks)
				.where(eq(signingLinks.id, linkId))
		: [];
	return {
		end,
		sessionId: s.id,
		officeId,
		applicationId,
		repNo,
		linkId,
		channel,
		revoked,
		...(finished ? { finished } : {}),
		...(link ? { emailed: link.email !== null } : {})
	};
}

/** The session behind a cookie, if it is still open (see findSession). */
export async function resumeSession(
	db: Db,
	secret: string | undefined,
	idleMinutes: number,
	now = new Date()
): Promise<SigningSession | undefined> {
	const found = await findSession(db, secret, idleMinutes, now);
	return found && 'open' in found ? found.open : undefined;
}

/**
 * Why a session can no longer be used, or null while it can: closed, its link replaced or
 * withdrawn (a rep who sends a new link, say because the first went to the wrong person, ends
 * what the old one started) — unless the decision is made, whose done page stays —, idle, or
 * older than a working day.
 */
export function sessionEnd(
	s: Pick<SigningSession, 'closedAt' | 'decisionId' | 'declineId' | 'lastSeenAt' | 'createdAt'>,
	linkRevokedAt: Date | null,
	idleMinutes: number,
	now = new Date()
): SessionEnd | null {
	if (s.closedAt) return 'closed';
	if (linkRevokedAt && !s.decisionId && !s.declineId) return 'link_revoked';
	if (now.getTime() - s.lastSeenAt.getTime() > idleMinutes * 60_000) return 'idle';
	return now.getTime() - s.createdAt.getTime() <= MAX_SESSION_MS ? null : 'expired';
}

/** Whether a session can still be used (see sessionEnd). */
export function sessionIsOpen(
	s: Pick<SigningSession, 'closedAt' | 'decisionId' | 'declineId' | 'lastSeenAt' | 'createdAt'>,
	linkRevokedAt: Date | null,
	idleMinutes: number,
	now = new Date()
): boolean {
	return sessionEnd(s, linkRevokedAt, idleMinutes, now) === null;
}

type ResumeFacts = Pick<
	SigningSession,
	'channel' | 'closedAt' | 'decisionId' | 'declineId' | 'lastSeenAt' | 'createdAt'
>;

/**
 * The in-person session a hand-over picks up (inperson/handover.ts), as the console says it will
 * (console/state.ts): the application's newest one that neither closed nor ended in a decision or
 * a decline, if it is still open. One that did is over: a merchant who changes their mind after a
 * decline starts afresh.
 */
export function resumableOf<T extends ResumeFacts>(
	sessions: T[],
	idleMinutes: number,
	now = new Date()
): T | null {
	let newest: T | null = null;
	for (const s of sessions) {
		if (s.channel !== 'in_person' || s.closedAt || s.decisionId || s.declineId) continue;
		if (!newest || s.createdAt.getTime() > newest.createdAt.getTime()) newest = s;
	}
	return newest && sessionIsOpen(newest, null, idleMinutes, now) ? newest : null;
}

export async function closeSession(db: Tx, id: string, now = new Date()): Promise<void> {
	await db.update(signingSessions).set({ closedAt: now }).where(eq(signingSessions.id, id));
}

/**
 * The session this browser has open on the link, read on the link's own page: Start there goes on
 * with it (to its current step) instead of opening another, whose secret would take this one's
 * place in every tab, leaving questions it has open where no tab can answer them.
 */
export async function sessionOnLink(
	db: Db,
	secret: string | undefined,
	linkId: string,
	idleMinutes: number
): Promise<SigningSession | undefined> {
	const found = await findSession(db, secret, idleMinutes);
	if (!found || !('open' in found)) return undefined;
	const s = found.open;
	return s.channel === 'link' && s.linkId === linkId ? s : undefined;
}

/**
 * Whether a session on the link is still open in some browser: a link that expired while a
 * merchant signed on it can still be finished there (sessionEnd counts no expiry of the link).
 */
export async function openSessionOnLink(
	db: Db,
	link: { id: string; revokedAt: Date | null },
	idleMinutes: number,
	now = new Date()
): Promise<boolean> {
	const rows = await db
		.select({
			closedAt: signingSessions.closedAt,
			decisionId: signingSessions.decisionId,
			declineId: signingSessions.declineId,
			lastSeenAt: signingSessions.lastSeenAt,
			createdAt: signingSessions.createdAt
		})
		.from(signingSessions)
		.where(
			and(
				eq(signingSessions.linkId, link.id),
				isNull(signingSessions.closedAt),
				isNull(signingSessions.finishedAt)
			)
		);
	return rows.some((s) => sessionIsOpen(s, link.revokedAt, idleMinutes, now));
}

export type Step = 'terms' | 'identity' | 'sign' | 'done';

export const STEP_PATHS: Record<Step, string> = {
	terms: '/sign/terms',
	identity: '/sign/identity',
	sign: '/sign/sign',
	done: '/sign/done'
};

/** Where the session stands: derived from what is recorded, so the server alone decides. */
export function currentStep(
	s: Pick<SigningSession, 'decisionId' | 'declineId' | 'identityPassedAt' | 'consentAt'>
): Step {
	if (s.decisionId || s.declineId) return 'done';
	if (s.identityPassedAt) return 'sign';
	if (s.consentAt) return 'identity';
	return 'terms';
}

/**
 * The end of a session with an outcome (a decision, or a decline the portal keeps): the session
 * is finished, its draft goes, and the application's links are used up.
 */
export async function finishSession(
	tx: Tx,
	session: Pick<SigningSession, 'id' | 'officeId' | 'applicationId'>,
	outcome: { decisionId: string } | { declineId: string },
	now: Date
): Promise<void> {
	await tx
		.update(signingSessions)
		.set({ ...outcome, finishedAt: now, draft: null })
		.where(eq(signingSessions.id, session.id));
	await tx
		.update(signingLinks)
		.set({ usedAt: now })
		.where(activeLinksOf(session.officeId, session.applicationId));
}

/**
 * A session by its id, if still open: for a tablet handed over in person, whose hand-over (not
 * only the cookie) names the session.
 */
export async function openSessionById(
	db: Db,
	id: string,
	idleMinutes: number,
	now = new Date()
): Promise<SigningSession | undefined> {
	const [row] = await db.select().from(signingSessions).where(eq(signingSessions.id, id));
	return row && sessionIsOpen(row, null, idleMinutes, now) ? row : undefined;
}
