import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '$lib/server/db';
import { preparedPer } from '$lib/server/db/prepared';
import {
	auditEvents,
	decisions,
	declines,
	handovers,
	identityAttempts,
	signingLinks,
	signingSessions
} from '$lib/server/db/schema';
import type { ApplicationFacts } from './state';

export type StoredFacts = Omit<ApplicationFacts, 'serviceStatus'>;

const empty = (): StoredFacts => ({
	links: [],
	sessions: [],
	attempts: [],
	decision: null,
	declines: [],
	events: []
});

type Scope = 'office' | 'application';

/**
 * The console's seven statements, built once per database and scope (on PostgreSQL also prepared
 * once per connection): the whole office for its list, one application for its page. Every one is
 * bound to the office. Only the columns the state is derived from are read: decoding rows is most
 * of a query's cost (what a session was shown, a decision's sealed fields are left out).
 */
function factQueries(db: Tx, scope: Scope) {
	const of = (t: { officeId: PgColumn; applicationId: PgColumn }) =>
		scope === 'office'
			? eq(t.officeId, sql.placeholder('officeId'))
			: and(
					eq(t.officeId, sql.placeholder('officeId')),
					eq(t.applicationId, sql.placeholder('applicationId'))
				);
	const name = (what: string) => `console_${what}_${scope}`;
	return {
		links: db
			.select({
				applicationId: signingLinks.applicationId,
				id: signingLinks.id,
				email: signingLinks.email,
				createdAt: signingLinks.createdAt,
				expiresAt: signingLinks.expiresAt,
				revokedAt: signingLinks.revokedAt,
				usedAt: signingLinks.usedAt
			})
			.from(signingLinks)
			.where(of(signingLinks))
			.prepare(name('links')),
		sessions: db
			.select({
				applicationId: signingSessions.applicationId,
				id: signingSessions.id,
				linkId: signingSessions.linkId,
				channel: signingSessions.channel,
				createdAt: signingSessions.createdAt,
				lastSeenAt: signingSessions.lastSeenAt,
				closedAt: signingSessions.closedAt,
				consentAt: signingSessions.consentAt,
				identityPassedAt: signingSessions.identityPassedAt,
				decisionId: signingSessions.decisionId,
				declineId: signingSessions.declineId
			})
			.from(signingSessions)
			.where(of(signingSessions))
			.prepare(name('sessions')),
		attempts: db
			.select({
				applicationId: identityAttempts.applicationId,
				startedAt: identityAttempts.startedAt,
				outcome: identityAttempts.outcome
			})
			.from(identityAttempts)
			.where(of(identityAttempts))
			.prepare(name('attempts')),
		decided: db
			.select({
				applicationId: decisions.applicationId,
				isAccepted: decisions.isAccepted,
				status: decisions.status,
				declineReason: decisions.declineReason,
				attempts: decisions.attempts,
				lastError: decisions.lastError,
				createdAt: decisions.createdAt,
				deliveredAt: decisions.deliveredAt,
				nextAttemptAt: decisions.nextAttemptAt
			})
			.from(decisions)
			.where(of(decisions))
			.prepare(name('decisions')),
		declined: db
			.select({
				applicationId: declines.applicationId,
				at: declines.createdAt,
				reason: declines.reason
			})
			.from(declines)
			.where(of(declines))
			.prepare(name('declines')),
		events: db
			.select({
				applicationId: auditEvents.applicationId,
				type: auditEvents.type,
				at: auditEvents.at,
				by: sql<string | null>`${auditEvents.data}->>'by'`
			})
			.from(auditEvents)
			.where(
				and(of(auditEvents), inArray(auditEvents.type, ['identity.refused', 'identity.locked']))
			)
			.prepare(name('events')),
		// Tablets in a merchant's hands now (handed over, not locked).
		tablets: db
			.select({ sessionId: handovers.signingSessionId })
			.from(handovers)
			.where(and(of(handovers), isNull(handovers.lockedAt), isNull(handovers.endedAt)))
			.prepare(name('tablets'))
	};
}

const officeQueries = preparedPer((db) => factQueries(db, 'office'));
const applicationQueries = preparedPer((db) => factQueries(db, 'application'));

/**
 * What the portal has recorded for some applications of one office: seven statements whatever
 * their number, run together (one application's own, or the whole office's, of which only the
 * applications asked for are kept).
 */
export async function loadFacts(
	db: Db,
	officeId: number,
	applicationIds: number[]
): Promise<Map<number, StoredFacts>> {
	const out = new Map<number, StoredFacts>(applicationIds.map((id) => [id, empty()]));
	if (applicationIds.length === 0) return out;
	const q = applicationIds.length === 1 ? applicationQueries(db) : officeQueries(db);
	const params = { officeId, applicationId: applicationIds[0] };
	const [links, sessions, attempts, decided, declined, events, tablets] = await Promise.all([
		q.links.execute(params),
		q.sessions.execute(params),
		q.attempts.execute(params),
		q.decided.execute(params),
		q.declined.execute(params),
		q.events.execute(params),
		q.tablets.execute(params)
	]);
	const onTablet = new Set(tablets.map((t) => t.sessionId));
	for (const l of links) out.get(l.applicationId)?.links.push(l);
	for (const s of sessions)
		out.get(s.applicationId)?.sessions.push({ ...s, onTablet: onTablet.has(s.id) });
	for (const a of attempts) out.get(a.applicationId)?.attempts.push(a);
	for (const d of decided) {
		const facts = out.get(d.applicationId);
		if (facts) facts.decision = d;
	}
	for (const d of declined) {
		out.get(d.applicationId)?.declines.push({ at: d.at, reason: d.reason });
	}
	for (const e of events) {
		out.get(e.applicationId)?.events.push({
			type: e.type as 'identity.refused' | 'identity.locked',
			at: e.at,
			byService: e.by === 'service'
		});
	}
	return out;
}
