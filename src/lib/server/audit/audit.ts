import { createHash } from 'node:crypto';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '$lib/server/db';
import { isUuid } from '$lib/server/db/uuid';
import { auditEvents, type Channel } from '$lib/server/db/schema';
import { canonicalJson, toJson } from './canonical';
import { assertNoSsn } from './guard';

export type AuditEvent = typeof auditEvents.$inferSelect;

export interface AuditInput {
	officeId: number;
	applicationId: number;
	type: string;
	channel?: Channel | null;
	ip?: string | null;
	userAgent?: string | null;
	rep?: string | null;
	sessionId?: string | null;
	data?: Record<string, unknown>;
	at?: Date;
}

/** The prevHash of an application's first event. */
export const GENESIS = '0'.repeat(64);

type Hashed = Pick<
	AuditEvent,
	| 'officeId'
	| 'applicationId'
	| 'seq'
	| 'at'
	| 'type'
	| 'channel'
	| 'ip'
	| 'userAgent'
	| 'rep'
	| 'sessionId'
	| 'data'
	| 'prevHash'
>;

/** SHA-256 over the canonical JSON of every field but the row id and the hash itself. */
export function hashEvent(e: Hashed): string {
	return createHash('sha256').update(hashedJson(e), 'utf8').digest('hex');
}

/** The canonical JSON an event's hash is of (the rep's certificate attaches it, one per line). */
export function hashedJson(e: Hashed): string {
	return canonicalJson({
		officeId: e.officeId,
		applicationId: e.applicationId,
		seq: e.seq,
		at: e.at.toISOString(),
		type: e.type,
		channel: e.channel,
		ip: e.ip,
		userAgent: e.userAgent,
		rep: e.rep,
		sessionId: e.sessionId,
		data: e.data,
		prevHash: e.prevHash
	});
}

/**
 * The application's advisory lock, held until the transaction ends (taken again by the same
 * transaction, it is already held). Every append takes it; others take it to order their
 * writes against the trail's, or against each other's (a link and a hand-over, links.ts).
 */
export async function holdApplication(tx: Tx, officeId: number, applicationId: number) {
	await tx.execute(sql`select pg_advisory_xact_lock(${officeId}::int4, ${applicationId}::int4)`);
}

/**
 * Appends one event to the application's chain. Takes the database or a transaction: either way
 * it works in a transaction (a savepoint inside the caller's), and holds a per-application
 * advisory lock until that transaction ends, so two instances can never both append seq n.
 * (A caller's REPEATABLE READ snapshot taken before the lock could still miss a row; the unique
 * index on (office, application, seq) then refuses the insert rather than fork the chain.)
 */
export async function appendAudit(tx: Tx, input: AuditInput): Promise<AuditEvent> {
	const data = toJson(input.data ?? {});
	assertNoSsn(data);
	const at = input.at ?? new Date();
	if (Number.isNaN(at.getTime())) throw new Error('audit: invalid time');
	// PostgreSQL prints a uuid in lower case; hash what will be read back.
	if (input.sessionId != null && !isUuid(input.sessionId)) {
		throw new Error('audit: sessionId is not a uuid');
	}
	const sessionId = input.sessionId?.toLowerCase() ?? null;

	return tx.transaction(async (t) => {
		await holdApplication(t, input.officeId, input.applicationId);
		const [last] = await t
			.select({ seq: auditEvents.seq, hash: auditEvents.hash })
			.from(auditEvents)
			.where(
				and(
					eq(auditEvents.officeId, input.officeId),
					eq(auditEvents.applicationId, input.applicationId)
				)
			)
			.orderBy(desc(auditEvents.seq))
			.limit(1);
		const fields: Hashed = {
			officeId: input.officeId,
			applicationId: input.applicationId,
			seq: (last?.seq ?? 0) + 1,
			at,
			type: input.type,
			channel: input.channel ?? null,
			ip: input.ip ?? null,
			userAgent: input.userAgent ?? null,
			rep: input.rep ?? null,
			sessionId,
			data,
			prevHash: last?.hash ?? GENESIS
		};
		const [row] = await t
			.insert(auditEvents)
			.values({ ...fields, hash: hashEvent(fields) })
			.returning();
		return row as AuditEvent;
	});
}

/** Whether the portal has recorded anything of the application (a link, a session, a decision). */
export async function hasTrail(db: Tx, officeId: number, applicationId: number): Promise<boolean> {
	const [row] = await db
		.select({ seq: auditEvents.seq })
		.from(auditEvents)
		.where(and(eq(auditEvents.officeId, officeId), eq(auditEvents.applicationId, applicationId)))
		.limit(1);
	return row !== undefined;
}

/** The application's events, oldest first. */
export async function listAudit(
	db: Tx,
	officeId: number,
	applicationId: number
): Promise<AuditEvent[]> {
	return db
		.select()
		.from(auditEvents)
		.where(and(eq(auditEvents.officeId, officeId), eq(auditEvents.applicationId, applicationId)))
		.orderBy(asc(auditEvents.seq));
}

export type ChainVerification =
	| { ok: true; count: number; head: string }
	| { ok: false; count: number; brokenAt: number; reason: string };

/**
 * Re-computes the chain: an edited field changes that event's hash, a deleted or reordered event
 * breaks the seq run or the prevHash link. What the chain alone cannot show is the loss of the
 * newest events (the shorter chain is still valid) or a wholesale rewrite of every hash; for that
 * the head hash is returned, printed on the certificate of completion and so held outside the database.
 * `brokenAt` is the seq position (1-based) where the chain first fails.
 */
export async function verifyAuditChain(
	db: Tx,
	officeId: number,
	applicationId: number
): Promise<ChainVerification> {
	const events = await listAudit(db, officeId, applicationId);
	let prev = GENESIS;
	for (const [i, e] of events.entries()) {
		const fail = (reason: string) =>
			({ ok: false, count: events.length, brokenAt: i + 1, reason }) as const;
		if (e.seq !== i + 1) return fail(`expected event ${i + 1}, found event ${e.seq}`);
		if (e.prevHash !== prev) return fail('the link to the previous event is broken');
		if (hashEvent(e) !== e.hash) return fail('the event does not match its hash');
		prev = e.hash;
	}
	return { ok: true, count: events.length, head: prev };
}
