import { and, eq, gt, inArray, isNotNull, notExists, or, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '$lib/server/db';
import { preparedPer } from '$lib/server/db/prepared';
import { BY_OPERATOR_API, DEMO_MAKERS } from '$lib/server/links/links';
import {
	auditEvents,
	decisions,
	declines,
	handovers,
	identityAttempts,
	mailOutbox,
	signingLinks,
	signingSessions
} from '$lib/server/db/schema';
import type {
	ApplicationFacts,
	AttemptFact,
	DecisionFact,
	EventFact,
	LinkFact,
	LinkMail,
	PortalDeclineFact,
	SessionFact,
	TabletFact
} from './state';

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

/** A later hand-over of the same signing session. */
const newer = alias(handovers, 'newer');

/** A timestamp as epoch milliseconds, the precision a Date keeps (null stays null). */
const ms = (column: PgColumn) => sql`floor(extract(epoch from ${column}) * 1000)`;

/**
 * One table's rows for the scope as a JSON array of objects with these keys. The keys are ours
 * (written into the SQL, never the merchant's); the values are columns or expressions on them.
 */
function rowsOf(table: PgTable, fields: Record<string, SQL | PgColumn>, where: SQL | undefined) {
	const pairs = sql.join(
		Object.entries(fields).map(([key, value]) => sql`${sql.raw(`'${key}'`)}, ${value}`),
		sql`, `
	);
	return sql`coalesce((select json_agg(json_build_object(${pairs})) from ${table} where ${where}), '[]'::json)`;
}

/**
 * The link's own email (the newest, should it have been mailed again), correlated with the link's
 * row: through the outbox's index on office and application.
 */
function linkMailOf() {
	const m = mailOutbox;
	return sql`(select json_build_object('status', ${m.status}, 'sentAt', ${ms(m.sentAt)}, 'problem', ${m.lastError}, 'nextAt', ${ms(m.nextAttemptAt)})
		from ${m}
		where ${m.officeId} = ${signingLinks.officeId} and ${m.applicationId} = ${signingLinks.applicationId}
			and ${m.linkId} = ${signingLinks.id} and ${m.kind} = 'link'
		order by ${m.createdAt} desc limit 1)`;
}

/** The rows as they come back: timestamps in epoch milliseconds. */
type Wire<T> = {
	[K in keyof T]: T[K] extends Date ? number : T[K] extends Date | null ? number | null : T[K];
};
type Rows<T> = (Wire<T> & { applicationId: number })[];

/**
 * The console's one statement, built once per database and scope (on PostgreSQL also prepared
 * once per connection): the whole office for its list, one application for its page, bound to
 * the office either way. Each table's rows come back as one JSON array: one round trip instead of
 * seven, and no mapping of every row field by field in drizzle. The seven statements took about a
 * fifth of the list's CPU (tests/bench/NOTES.md §7). Only the columns the state is derived from
 * are read (what a session was shown, a decision's sealed fields are left out).
 */
function factsQuery(db: Tx, scope: Scope) {
	const of = (t: { officeId: PgColumn; applicationId: PgColumn }) =>
		scope === 'office'
			? eq(t.officeId, sql.placeholder('officeId'))
			: and(
					eq(t.officeId, sql.placeholder('officeId')),
					eq(t.applicationId, sql.placeholder('applicationId'))
				);
	return db
		.select({
			links: sql<
				(Wire<Omit<LinkFact, 'mail'>> & { applicationId: number; mail: Wire<LinkMail> | null })[]
			>`${rowsOf(
				signingLinks,
				{
					applicationId: signingLinks.applicationId,
					id: signingLinks.id,
					email: signingLinks.email,
					createdAt: ms(signingLinks.createdAt),
					expiresAt: ms(signingLinks.expiresAt),
					revokedAt: ms(signingLinks.revokedAt),
					usedAt: ms(signingLinks.usedAt),
					viaApi: sql`${signingLinks.createdBy} = ${sql.raw(`'${BY_OPERATOR_API}'`)}`,
					demo: sql`${signingLinks.createdBy} in (${sql.raw(DEMO_MAKERS.map((m) => `'${m}'`).join(', '))})`,
					mail: linkMailOf()
				},
				of(signingLinks)
			)}`,
			sessions: sql<Rows<Omit<SessionFact, 'tablet'>>>`${rowsOf(
				signingSessions,
				{
					applicationId: signingSessions.applicationId,
					id: signingSessions.id,
					linkId: signingSessions.linkId,
					channel: signingSessions.channel,
					createdAt: ms(signingSessions.createdAt),
					lastSeenAt: ms(signingSessions.lastSeenAt),
					closedAt: ms(signingSessions.closedAt),
					consentAt: ms(signingSessions.consentAt),
					identityPassedAt: ms(signingSessions.identityPassedAt),
					decisionId: signingSessions.decisionId,
					declineId: signingSessions.declineId
				},
				of(signingSessions)
			)}`,
			attempts: sql<Rows<AttemptFact>>`${rowsOf(
				identityAttempts,
				{
					applicationId: identityAttempts.applicationId,
					sessionId: identityAttempts.sessionId,
					startedAt: ms(identityAttempts.startedAt),
					deadlineAt: ms(identityAttempts.deadlineAt),
					finishedAt: ms(identityAttempts.finishedAt),
					outcome: identityAttempts.outcome,
					shown: sql`${identityAttempts.questionsEnc} is not null`
				},
				of(identityAttempts)
			)}`,
			decided: sql<Rows<DecisionFact>>`${rowsOf(
				decisions,
				{
					applicationId: decisions.applicationId,
					isAccepted: decisions.isAccepted,
					status: decisions.status,
					declineReason: decisions.declineReason,
					attempts: decisions.attempts,
					lastError: decisions.lastError,
					createdAt: ms(decisions.createdAt),
					deliveredAt: ms(decisions.deliveredAt),
					nextAttemptAt: ms(decisions.nextAttemptAt)
				},
				of(decisions)
			)}`,
			declined: sql<Rows<PortalDeclineFact>>`${rowsOf(
				declines,
				{
					applicationId: declines.applicationId,
					at: ms(declines.createdAt),
					reason: declines.reason
				},
				of(declines)
			)}`,
			// Also a decision's event when the names typed were not the owner's (recordDecision):
			// the only place that is kept outside the sealed decision.
			events: sql<
				(Wire<Omit<EventFact, 'byService' | 'type'>> & {
					applicationId: number;
					type: EventFact['type'] | 'decision.accepted' | 'decision.declined' | 'identity.passed';
					by: string | null;
					sessionId: string | null;
					signer: string | null;
					owner: string | null;
				})[]
			>`${rowsOf(
				auditEvents,
				{
					applicationId: auditEvents.applicationId,
					type: auditEvents.type,
					at: ms(auditEvents.at),
					by: sql`${auditEvents.data}->>'by'`,
					sessionId: auditEvents.sessionId,
					signer: sql`${auditEvents.data}->>'signerName'`,
					owner: sql`${auditEvents.data}->>'ownerName'`
				},
				and(
					of(auditEvents),
					or(
						inArray(auditEvents.type, ['identity.refused', 'identity.locked']),
						// A pass carried over from an earlier one (its `by` says whence): not a pass of its own.
						and(
							eq(auditEvents.type, 'identity.passed'),
							isNotNull(sql`${auditEvents.data}->>'by'`)
						),
						and(
							inArray(auditEvents.type, ['decision.accepted', 'decision.declined']),
							isNotNull(sql`${auditEvents.data}->>'ownerName'`)
						)
					)
				)
			)}`,
			// Each in-person session's newest hand-over: one resumed on another tablet locks the
			// first tablet's row ('moved'), and the newer one is where the merchant is.
			tablets: sql<(Wire<TabletFact> & { sessionId: string })[]>`${rowsOf(
				handovers,
				{
					id: handovers.id,
					sessionId: handovers.signingSessionId,
					lastSeenAt: ms(handovers.lastSeenAt),
					lockedAt: ms(handovers.lockedAt),
					lockReason: handovers.lockReason,
					endedAt: ms(handovers.endedAt)
				},
				and(
					of(handovers),
					notExists(
						db
							.select({ one: sql`1` })
							.from(newer)
							.where(
								and(
									eq(newer.signingSessionId, handovers.signingSessionId),
									gt(newer.startedAt, handovers.startedAt)
								)
							)
					)
				)
			)}`
		})
		.from(sql`(select 1) as one`)
		.prepare(`console_facts_${scope}`);
}

const date = (at: number) => new Date(at);
const dateOrNull = (at: number | null) => (at === null ? null : new Date(at));

const officeQuery = preparedPer((db) => factsQuery(db, 'office'));
const applicationQuery = preparedPer((db) => factsQuery(db, 'application'));

/**
 * What the portal has recorded for some applications of one office: one statement whatever their
 * number (one application's own, or the whole office's, of which only the applications asked for
 * are kept).
 */
export async function loadFacts(
	db: Db,
	officeId: number,
	applicationIds: number[]
): Promise<Map<number, StoredFacts>> {
	const out = new Map<number, StoredFacts>(applicationIds.map((id) => [id, empty()]));
	if (applicationIds.length === 0) return out;
	const q = applicationIds.length === 1 ? applicationQuery(db) : officeQuery(db);
	const [found] = await q.execute({ officeId, applicationId: applicationIds[0] });
	const { links, sessions, attempts, decided, declined, events, tablets } = found!;
	const tabletOf = new Map(
		tablets.map((t) => [
			t.sessionId,
			{
				id: t.id,
				lastSeenAt: date(t.lastSeenAt),
				lockedAt: dateOrNull(t.lockedAt),
				lockReason: t.lockReason,
				endedAt: dateOrNull(t.endedAt)
			}
		])
	);
	for (const l of links) {
		out.get(l.applicationId)?.links.push({
			id: l.id,
			email: l.email,
			createdAt: date(l.createdAt),
			expiresAt: date(l.expiresAt),
			revokedAt: dateOrNull(l.revokedAt),
			usedAt: dateOrNull(l.usedAt),
			viaApi: l.viaApi,
			...(l.demo ? { demo: true } : {}),
			mail: l.mail && {
				status: l.mail.status,
				sentAt: dateOrNull(l.mail.sentAt),
				problem: l.mail.problem,
				nextAt: l.mail.status === 'pending' ? dateOrNull(l.mail.nextAt) : null
			}
		});
	}
	const carried = new Set(
		events.filter((e) => e.type === 'identity.passed').map((e) => e.sessionId)
	);
	for (const s of sessions) {
		out.get(s.applicationId)?.sessions.push({
			id: s.id,
			linkId: s.linkId,
			channel: s.channel,
			createdAt: date(s.createdAt),
			lastSeenAt: date(s.lastSeenAt),
			closedAt: dateOrNull(s.closedAt),
			consentAt: dateOrNull(s.consentAt),
			identityPassedAt: dateOrNull(s.identityPassedAt),
			...(carried.has(s.id) ? { carried: true } : {}),
			decisionId: s.decisionId,
			declineId: s.declineId,
			tablet: tabletOf.get(s.id) ?? null
		});
	}
	for (const a of attempts) {
		out.get(a.applicationId)?.attempts.push({
			sessionId: a.sessionId,
			startedAt: date(a.startedAt),
			deadlineAt: date(a.deadlineAt),
			finishedAt: dateOrNull(a.finishedAt),
			outcome: a.outcome,
			shown: a.shown
		});
	}
	for (const d of decided) {
		const facts = out.get(d.applicationId);
		if (!facts) continue;
		facts.decision = {
			isAccepted: d.isAccepted,
			status: d.status,
			declineReason: d.declineReason,
			attempts: d.attempts,
			lastError: d.lastError,
			createdAt: date(d.createdAt),
			deliveredAt: dateOrNull(d.deliveredAt),
			nextAttemptAt: date(d.nextAttemptAt)
		};
	}
	for (const d of declined) {
		out.get(d.applicationId)?.declines.push({ at: date(d.at), reason: d.reason });
	}
	for (const e of events) {
		if (e.type === 'identity.passed') continue;
		if (e.type === 'decision.accepted' || e.type === 'decision.declined') {
			const decision = out.get(e.applicationId)?.decision;
			if (decision && e.signer && e.owner)
				decision.otherSigner = { signer: e.signer, owner: e.owner };
			continue;
		}
		out.get(e.applicationId)?.events.push({
			type: e.type,
			at: date(e.at),
			byService: e.by === 'service'
		});
	}
	return out;
}
