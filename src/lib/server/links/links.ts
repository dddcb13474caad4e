import {
	and,
	desc,
	eq,
	gt,
	gte,
	isNotNull,
	isNull,
	lt,
	max,
	sql,
	type SQLWrapper
} from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { appendAudit, holdApplication } from '$lib/server/audit/audit';
import { hashToken, isTokenShaped, newToken } from '$lib/server/crypto/tokens';
import type { Db, Tx } from '$lib/server/db';
import { preparedPer } from '$lib/server/db/prepared';
import {
	auditEvents,
	decisions,
	declines,
	handovers,
	signingLinks,
	signingSessions
} from '$lib/server/db/schema';
import type { RequestMeta } from '$lib/server/http/meta';
import { serverIdleMs } from '$lib/inperson';

export type LinkState = 'valid' | 'expired' | 'revoked' | 'used' | 'unknown';

/** `createdBy` (and a revoke's `by`) of a link made through the operator API. */
export const BY_OPERATOR_API = 'operator-api';
/** Who made a link from the start page's "Start a demo signing" (the sandbox only). */
export const BY_SANDBOX_DEMO = 'sandbox-demo';
/** Who made the demo link `npm start` prints (scripts/start.js, through the operator API, the sandbox only). */
export const BY_START_DEMO = 'start-demo';
/** Who makes links for the demo, by the start page or by `npm start`: not links for a real merchant. */
export const DEMO_MAKERS: readonly string[] = [BY_SANDBOX_DEMO, BY_START_DEMO];
/** A link made for the demo (the console's facts ask the same of the database: console/facts.ts). */
export const isDemoLink = (createdBy: unknown) =>
	typeof createdBy === 'string' && DEMO_MAKERS.includes(createdBy);

export interface CreateLinkInput {
	officeId: number;
	applicationId: number;
	email: string | null;
	createdBy: string;
	ttlHours: number;
	/** Overrides ttlHours; the caller checks it is in the future and within the lifetime. */
	expiresAt?: Date;
	meta: RequestMeta;
	/** The rep who made it, as the audit trail names them. */
	rep?: string | null;
}

/** The application's links that are neither revoked nor used (expired ones included). */
export function activeLinksOf(officeId: number, applicationId: number) {
	return and(
		eq(signingLinks.officeId, officeId),
		eq(signingLinks.applicationId, applicationId),
		isNull(signingLinks.revokedAt),
		isNull(signingLinks.usedAt)
	);
}

/**
 * When a link may be made, beside always (the default, which replaces whatever link there is).
 * `keep`: only if no link can still be opened, which is left as it is. `replaces`: only if the
 * application's usable link is still the one a rep's page showed (its id; null: none), so a tab
 * left open does not silently replace a link made since, in another tab or by a colleague.
 */
export type LinkGuard = { keep: boolean } | { replaces: string | null };

/** Either guard or none, as the functions that make a link read their input. */
export type AnyGuard = Partial<{ keep: boolean; replaces: string | null }>;

/** Why a link was not made: a guard did not hold (`kept`, `moved`: see LinkGuard), or `tablet`. */
export type LinkHeld = 'kept' | 'moved' | 'tablet';

/** A link made, or why not. */
export type MadeLink = ({ ok: true } & CreatedLink) | { ok: false; reason: LinkHeld };

/** Thrown inside the transaction to undo it. */
class NotMade extends Error {
	constructor(readonly reason: LinkHeld) {
		super(reason);
	}
}

export interface TabletRule {
	/**
	 * IN_PERSON_IDLE_SECONDS. Given, no link is made while a tablet is in the merchant's hands for
	 * the application (handed over, not taken back, not idle, its signing not ended in a decision
	 * or a decline): a link would run beside the signing at the counter, and whoever opened it
	 * could record a decline while the merchant signs there. A hand-over ends the link; a link
	 * waits for the tablet. issueLink (ending.ts) always gives it.
	 */
	tabletIdleSeconds?: number;
}

/**
 * Creates a link and revokes every earlier one of the application in the same transaction, so
 * there is at most one usable link per application. Returns the token (the only time it exists)
 * and the ids of the links it replaced (see issueLink, ending.ts). Under a guard that does not
 * hold (LinkGuard), or while a tablet is out (TabletRule), nothing is made or ended.
 */
export async function makeLink(
	db: Db,
	input: CreateLinkInput & AnyGuard & TabletRule,
	now = new Date()
): Promise<MadeLink> {
	const token = newToken();
	const expiresAt = input.expiresAt ?? new Date(now.getTime() + input.ttlHours * 3_600_000);
	const made = await db
		.transaction(async (tx) => {
			if (input.keep) {
				const [open] = await tx
					.select({ id: signingLinks.id })
					.from(signingLinks)
					.where(
						and(activeLinksOf(input.officeId, input.applicationId), gt(signingLinks.expiresAt, now))
					)
					.limit(1);
				if (open) throw new NotMade('kept');
			}
			const revoked = await tx
				.update(signingLinks)
				.set({ revokedAt: now })
				.where(activeLinksOf(input.officeId, input.applicationId))
				.returning({ id: signingLinks.id });
			// A tablet out is said first: its hand-over ended the link the rep's page showed, so the
			// guard below would fail too, and name the wrong cause.
			if (input.tabletIdleSeconds !== undefined) {
				await tabletAway(tx, input.officeId, input.applicationId, input.tabletIdleSeconds, now);
			}
			// Checked on what the update ended rather than on a read before it: a link made meanwhile by
			// another transaction is not among them (or holds the row until it commits), so two tabs
			// posting at once cannot both pass. There is at most one usable link to end.
			if (input.replaces !== undefined) {
				const ended = revoked.map((r) => r.id);
				const expected = input.replaces === null ? [] : [input.replaces];
				if (ended.length !== expected.length || ended.some((id, i) => id !== expected[i])) {
					throw new NotMade('moved');
				}
			}
			const [row] = await tx
				.insert(signingLinks)
				.values({
					tokenHash: hashToken(token),
					officeId: input.officeId,
					applicationId: input.applicationId,
					email: input.email,
					createdBy: input.createdBy,
					createdAt: now,
					expiresAt
				})
				.returning();
			const base = {
				officeId: input.officeId,
				applicationId: input.applicationId,
				channel: 'link' as const,
				ip: input.meta.ip,
				userAgent: input.meta.userAgent,
				rep: input.rep ?? null,
				at: now
			};
			for (const r of revoked) {
				await appendAudit(tx, {
					...base,
					type: 'link.revoked',
					// Who made the new link: the operator API has no rep to name.
					data: { linkId: r.id, reason: 'replaced', by: input.createdBy }
				});
			}
			await appendAudit(tx, {
				...base,
				type: 'link.created',
				data: {
					linkId: row!.id,
					createdBy: input.createdBy,
					expiresAt: expiresAt.toISOString(),
					emailedTo: input.email
				}
			});
			return { link: row!, replaced: revoked.map((r) => r.id) };
		})
		.catch((err: unknown) => {
			if (err instanceof NotMade) return err.reason;
			throw err;
		});
	return typeof made === 'string' ? { ok: false, reason: made } : { ok: true, token, ...made };
}

/**
 * Throws NotMade('tablet') if a tablet is in the merchant's hands (TabletRule). Under the
 * application's lock, which a hand-over takes as it writes its row (inperson/handover.ts): of a
 * link and a hand-over made at once, either this sees the hand-over, or the link was there
 * before the hand-over ended the application's links.
 */
async function tabletAway(
	tx: Tx,
	officeId: number,
	applicationId: number,
	idleSeconds: number,
	now: Date
) {
	// After the links' rows are taken (above): every writer takes them before this lock, never after.
	await holdApplication(tx, officeId, applicationId);
	const [out] = await tx
		.select({ id: handovers.id })
		.from(handovers)
		.innerJoin(signingSessions, eq(signingSessions.id, handovers.signingSessionId))
		.where(
			and(
				eq(handovers.officeId, officeId),
				eq(handovers.applicationId, applicationId),
				isNull(handovers.lockedAt),
				isNull(handovers.endedAt),
				// Not idle, by handoverIdle's rule (the tablet may not have told the server yet).
				gte(handovers.lastSeenAt, new Date(now.getTime() - serverIdleMs(idleSeconds))),
				isNull(signingSessions.decisionId),
				isNull(signingSessions.declineId)
			)
		)
		.limit(1);
	if (out) throw new NotMade('tablet');
}

/** For tests that only need a link: makeLink, without the tablet rule unless given. */
export async function createLink(db: Db, input: CreateLinkInput, now?: Date): Promise<CreatedLink>;
export async function createLink(
	db: Db,
	input: CreateLinkInput & (LinkGuard | TabletRule),
	now?: Date
): Promise<CreatedLink | null>;
export async function createLink(
	db: Db,
	input: CreateLinkInput & AnyGuard & TabletRule,
	now = new Date()
): Promise<CreatedLink | null> {
	const made = await makeLink(db, input, now);
	return made.ok ? made : null;
}

export type SigningLink = typeof signingLinks.$inferSelect;

export interface CreatedLink {
	token: string;
	link: SigningLink;
	/** The ids of the links it replaced. */
	replaced: string[];
}

/**
 * Revokes the application's usable link (a rep's "Revoke"): its sessions end with it, as when a
 * new link replaces it. Returns the ids of the links revoked (none or one).
 */
export async function revokeLinks(
	db: Db,
	input: {
		officeId: number;
		applicationId: number;
		rep: string | null;
		meta: RequestMeta;
		/** Why: the rep's "Revoke" (the default), or a hand-over for signing in person. */
		reason?: 'revoked' | 'in_person';
		/** Who: `rep:<id>` (see howRevoked). */
		by?: string;
		/** Only this link, if it is still usable: the one the rep's page showed. */
		only?: string;
	},
	now = new Date()
): Promise<string[]> {
	return db.transaction(async (tx) => {
		const revoked = await tx
			.update(signingLinks)
			.set({ revokedAt: now })
			.where(
				and(
					activeLinksOf(input.officeId, input.applicationId),
					input.only === undefined ? undefined : eq(signingLinks.id, input.only)
				)
			)
			.returning({ id: signingLinks.id, expiresAt: signingLinks.expiresAt });
		for (const r of revoked) {
			// One that had expired opened nothing already: the trail says so, rather than that the
			// hand-over (or the rep) stopped a link that worked.
			const expired = r.expiresAt.getTime() <= now.getTime();
			await appendAudit(tx, {
				officeId: input.officeId,
				applicationId: input.applicationId,
				type: 'link.revoked',
				channel: 'link',
				ip: input.meta.ip,
				userAgent: input.meta.userAgent,
				rep: input.rep,
				at: now,
				data: {
					linkId: r.id,
					reason: input.reason ?? 'revoked',
					by: input.by,
					...(expired ? { expired: true } : {})
				}
			});
		}
		return revoked.map((r) => r.id);
	});
}

/**
 * Whether the email of a link just made says earlier links no longer work: it replaced one, or a
 * link of the application older than it was emailed (whatever ended that one: a revoke, its
 * expiry). Said once here for every sender (the console's Send, the operator API).
 */
export async function replacesEarlier(db: Db, made: CreatedLink): Promise<boolean> {
	if (made.replaced.length > 0) return true;
	const { link } = made;
	const [row] = await db
		.select({ id: signingLinks.id })
		.from(signingLinks)
		.where(
			and(
				eq(signingLinks.officeId, link.officeId),
				eq(signingLinks.applicationId, link.applicationId),
				isNotNull(signingLinks.email),
				lt(signingLinks.createdAt, link.createdAt)
			)
		)
		.limit(1);
	return row !== undefined;
}

/** The application's link neither revoked nor used (expired or not), if it has one. */
export async function usableLink(
	db: Db,
	officeId: number,
	applicationId: number
): Promise<{ id: string; expiresAt: Date } | undefined> {
	const [row] = await db
		.select({ id: signingLinks.id, expiresAt: signingLinks.expiresAt })
		.from(signingLinks)
		.where(activeLinksOf(officeId, applicationId))
		.limit(1);
	return row;
}

/** Whether the application has a link neither revoked nor used (expired or not). */
export async function hasUsableLink(
	db: Db,
	officeId: number,
	applicationId: number
): Promise<boolean> {
	return (await usableLink(db, officeId, applicationId)) !== undefined;
}

/**
 * Why a revoked link no longer opens: a newer one, emailed (`replaced`) or not (`replaced_unsent`:
 * made to copy, or by the operator API or the start page without an address, so no email holds
 * it), or one that no longer opens either (`replaced_closed`: revoked, expired or used in its
 * turn), the rep's "Revoke", or a hand-over.
 */
export type RevokedHow =
	'replaced' | 'replaced_unsent' | 'replaced_closed' | 'withdrawn' | 'in_person';

/** The newest link since one, as the merchant of the older one is told of it. */
const newestSince = (newer: { emailed: boolean; opens: boolean }) =>
	!newer.opens ? 'replaced_closed' : newer.emailed ? 'replaced' : 'replaced_unsent';

/** signing_links, or an alias of it. */
type Links = Record<'usedAt' | 'revokedAt' | 'expiresAt' | 'createdBy' | 'email', AnyPgColumn>;

/** Whether a link still opens, in SQL: linkState's 'valid'. */
const opensSql = (t: Links, now: Date) =>
	sql`${t.usedAt} is null and ${t.revokedAt} is null and ${t.expiresAt} > ${now.toISOString()}::timestamptz`;

/** The newest link since one, in SQL: who made it, whether it was emailed, whether it opens. */
const newerSql = (t: Links, now: Date) =>
	sql`json_build_object('by', ${t.createdBy}, 'emailed', ${t.email} is not null, 'opens', ${opensSql(t, now)})`;

/** Where an application's id is read from: a number, or the outer query's column. */
type Of = { officeId: number | SQLWrapper; applicationId: number | SQLWrapper };

/** Whether the application has a decision on record, in SQL. */
const decidedSql = (db: Tx | Db, of: Of) =>
	sql<boolean>`exists (${db
		.select({ id: decisions.id })
		.from(decisions)
		.where(
			and(eq(decisions.officeId, of.officeId), eq(decisions.applicationId, of.applicationId))
		)})`;

/** declinedSinceLastLink in SQL, to be read in the same query as the rest. */
const declinedSinceSql = (db: Tx | Db, of: Of) => {
	// Its own name, so that the outer query's signing_links is not taken for it.
	const latest = alias(signingLinks, 'latest');
	const newestLink = db
		.select({ at: max(latest.createdAt) })
		.from(latest)
		.where(and(eq(latest.officeId, of.officeId), eq(latest.applicationId, of.applicationId)));
	return sql<boolean>`exists (${db
		.select({ id: declines.id })
		.from(declines)
		.where(
			and(
				eq(declines.officeId, of.officeId),
				eq(declines.applicationId, of.applicationId),
				sql`${declines.createdAt} >= coalesce((${newestLink}), '-infinity'::timestamptz)`
			)
		)})`;
};

/**
 * How a revoked link came to end, and who ended it: `by` is the newer link's `createdBy`, or the
 * revoke's (`rep:<id>`; null for a revoke recorded before revokes named it). The merchant's page
 * then names that rep: the one who handed over a tablet, say, rather than the application's own.
 */
export interface Revoked {
	how: RevokedHow;
	by: string | null;
	/** A hand-over revoked it, whether or not a newer link has come since. */
	inPerson?: boolean;
	/** The application has a decision on record since (made with another link, or in person). */
	decided?: boolean;
	/** Declined before identity since its newest link (see declinedSinceLastLink), undecided. */
	declined?: boolean;
}

/**
 * How a revoked link came to end, read where a merchant meets it (its page, or a session it had
 * started): a newer link for the application replaced it; else the trail's revoke says whether a
 * rep withdrew it or took the signing in person.
 */
export async function howRevoked(db: Db, linkId: string, now = new Date()): Promise<Revoked> {
	const newer = alias(signingLinks, 'newer');
	const revoke = db
		.select({ data: auditEvents.data })
		.from(auditEvents)
		.where(
			and(
				eq(auditEvents.officeId, signingLinks.officeId),
				eq(auditEvents.applicationId, signingLinks.applicationId),
				eq(auditEvents.type, 'link.revoked'),
				sql`${auditEvents.data} ->> 'linkId' = ${signingLinks.id}::text`
			)
		)
		.orderBy(desc(auditEvents.at))
		.limit(1);
	const of = { officeId: signingLinks.officeId, applicationId: signingLinks.applicationId };
	const [row] = await db
		.select({
			// The newest link since, and whether it still opens: one revoked, used or expired in its
			// turn is no link to send the merchant to.
			newer: sql<{ by: string; emailed: boolean; opens: boolean } | null>`(${db
				.select({ newer: newerSql(newer, now) })
				.from(newer)
				.where(
					and(
						eq(newer.officeId, signingLinks.officeId),
						eq(newer.applicationId, signingLinks.applicationId),
						gt(newer.createdAt, signingLinks.createdAt)
					)
				)
				.orderBy(desc(newer.createdAt))
				.limit(1)})`,
			revoke: sql<{ reason?: string; by?: string } | null>`(${revoke})`,
			decided: decidedSql(db, of),
			declined: declinedSinceSql(db, of)
		})
		.from(signingLinks)
		.where(eq(signingLinks.id, linkId));
	const inPerson = row?.revoke?.reason === 'in_person';
	const decided = row?.decided === true;
	const declined = !decided && row?.declined === true;
	// The newest link only: one emailed and then replaced by a copy is not in the merchant's mail
	// to go on with (its email, if it had not gone out yet, was cancelled). A hand-over says what
	// ended this link unless a newer one is there to go on with.
	if (row?.newer && (row.newer.opens || !inPerson)) {
		return { how: newestSince(row.newer), by: row.newer.by, inPerson, decided, declined };
	}
	return {
		how: inPerson ? 'in_person' : 'withdrawn',
		by: row?.revoke?.by ?? null,
		inPerson,
		decided,
		declined
	};
}

/**
 * Whether the merchant's last word on the application is a decline before identity: one made
 * since its newest link was created (in person, or on that link), so no rep has sent a link since.
 */
export async function declinedSinceLastLink(
	db: Tx | Db,
	officeId: number,
	applicationId: number
): Promise<boolean> {
	const [row] = await db
		.select({ declined: declinedSinceSql(db, { officeId, applicationId }) })
		.from(sql`(select 1) as one`);
	return row?.declined === true;
}

/**
 * What used a link up (every link of the application is used up by a decision or a decline, see
 * finishSession), read where a merchant meets it: a decision on record; else a decline before
 * identity, which a newer link has since followed (`replaced`, `replaced_unsent` or
 * `replaced_closed`, as howRevoked) or not (`declined`).
 */
export async function howUsed(
	db: Db,
	link: SigningLink,
	now = new Date()
): Promise<'decided' | 'declined' | 'replaced' | 'replaced_unsent' | 'replaced_closed'> {
	const of = { officeId: link.officeId, applicationId: link.applicationId };
	const [row] = await db
		.select({
			decided: decidedSql(db, of),
			declined: declinedSinceSql(db, of),
			// The newest link since, and whether it still opens; null when there is none.
			newer: sql<{ emailed: boolean; opens: boolean } | null>`(${db
				.select({ newer: newerSql(signingLinks, now) })
				.from(signingLinks)
				.where(
					and(
						eq(signingLinks.officeId, of.officeId),
						eq(signingLinks.applicationId, of.applicationId),
						gt(signingLinks.createdAt, link.createdAt)
					)
				)
				.orderBy(desc(signingLinks.createdAt))
				.limit(1)})`
		})
		.from(sql`(select 1) as one`);
	if (!row || row.decided) return 'decided';
	if (row.newer === null) return 'declined';
	// Declined on the newer link too (it is used up by that decline).
	if (!row.newer.opens && row.declined) return 'declined';
	return newestSince(row.newer);
}

export function linkState(link: SigningLink | undefined, now = new Date()): LinkState {
	if (!link) return 'unknown';
	if (link.usedAt) return 'used';
	if (link.revokedAt) return 'revoked';
	if (link.expiresAt.getTime() <= now.getTime()) return 'expired';
	return 'valid';
}

const linkByToken = preparedPer((db) =>
	db
		.select()
		.from(signingLinks)
		.where(eq(signingLinks.tokenHash, sql.placeholder('tokenHash')))
		.prepare('link_by_token')
);

/** What a link is looked up by; none for a token of the wrong shape, which cannot be ours. */
export const lookupHash = (token: string): string | undefined =>
	isTokenShaped(token) ? hashToken(token) : undefined;

export async function findLink(db: Tx, token: string): Promise<SigningLink | undefined> {
	// Rather than hash garbage, a token of the wrong shape skips the lookup.
	const tokenHash = lookupHash(token);
	const [row] = tokenHash ? await linkByToken(db).execute({ tokenHash }) : [];
	return row;
}
