import { and, eq, inArray, isNull } from 'drizzle-orm';
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
	const [links, sessions, attempts, decided, declined, events, tablets] = await Promise.all([
		db.select().from(signingLinks).where(of(signingLinks)),
		db.select().from(signingSessions).where(of(signingSessions)),
		db
			.select({
				applicationId: identityAttempts.applicationId,
				startedAt: identityAttempts.startedAt,
				outcome: identityAttempts.outcome
			})
			.from(identityAttempts)
			.where(of(identityAttempts)),
		db.select().from(decisions).where(of(decisions)),
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
				data: auditEvents.data
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
			byService: e.data?.by === 'service'
		});
	}
	return out;
}
