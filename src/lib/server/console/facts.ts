import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '$lib/server/db';
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

/**
 * What the portal has recorded for some applications of one office: six queries whatever their
 * number, run together. Every query is bound to the office.
 */
export async function loadFacts(
	db: Db,
	officeId: number,
	applicationIds: number[]
): Promise<Map<number, StoredFacts>> {
	const out = new Map<number, StoredFacts>(applicationIds.map((id) => [id, empty()]));
	if (applicationIds.length === 0) return out;
	const of = (t: { officeId: PgColumn; applicationId: PgColumn }) =>
		and(eq(t.officeId, officeId), inArray(t.applicationId, applicationIds));
	// Only the columns the state is derived from: decoding a row is most of a query's cost on the
	// embedded database (what a session was shown, a decision's sealed fields are left out).
	const [links, sessions, attempts, decided, declined, events, tablets] = await Promise.all([
		db
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
			.where(of(signingLinks)),
		db
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
			.where(of(signingSessions)),
		db
			.select({
				applicationId: identityAttempts.applicationId,
				startedAt: identityAttempts.startedAt,
				outcome: identityAttempts.outcome
			})
			.from(identityAttempts)
			.where(of(identityAttempts)),
		db
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
			.where(of(decisions)),
		db
			.select({
				applicationId: declines.applicationId,
				at: declines.createdAt,
				reason: declines.reason
			})
			.from(declines)
			.where(of(declines)),
		db
			.select({
				applicationId: auditEvents.applicationId,
				type: auditEvents.type,
				at: auditEvents.at,
				by: sql<string | null>`${auditEvents.data}->>'by'`
			})
			.from(auditEvents)
			.where(
				and(of(auditEvents), inArray(auditEvents.type, ['identity.refused', 'identity.locked']))
			),
		// Tablets in a merchant's hands now (handed over, not locked).
		db
			.select({ signingSessionId: handovers.signingSessionId })
			.from(handovers)
			.where(and(of(handovers), isNull(handovers.lockedAt), isNull(handovers.endedAt)))
	]);
	const onTablet = new Set(tablets.map((t) => t.signingSessionId));
	const at = (id: number) => out.get(id) ?? out.set(id, empty()).get(id)!;
	for (const l of links) at(l.applicationId).links.push(l);
	for (const s of sessions)
		at(s.applicationId).sessions.push({ ...s, onTablet: onTablet.has(s.id) });
	for (const a of attempts) at(a.applicationId).attempts.push(a);
	for (const d of decided) at(d.applicationId).decision = d;
	for (const d of declined) at(d.applicationId).declines.push({ at: d.at, reason: d.reason });
	for (const e of events) {
		at(e.applicationId).events.push({
			type: e.type as 'identity.refused' | 'identity.locked',
			at: e.at,
			byService: e.by === 'service'
		});
	}
	return out;
}
