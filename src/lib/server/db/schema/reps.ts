import { sql } from 'drizzle-orm';
import {
	boolean,
	index,
	integer,
	pgTable,
	text,
	timestamp,
	uniqueIndex,
	uuid
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Sales reps: added by the operator (`npm run reps`), one office each. */
export const reps = pgTable(
	'reps',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		officeId: integer('office_id').notNull(),
		/** The service's `RepNo`: how an application names its rep. */
		repNo: integer('rep_no').notNull(),
		name: text('name').notNull(),
		/** As the operator typed it; unique whatever its case. */
		email: text('email').notNull(),
		phone: text('phone'),
		/** `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` (base64): see reps/password.ts. */
		passwordHash: text('password_hash').notNull(),
		disabledAt: ts('disabled_at'),
		createdAt: ts('created_at').notNull().defaultNow(),
		passwordChangedAt: ts('password_changed_at').notNull().defaultNow(),
		/**
		 * Set by the operator (`npm run reps -- add` or `reset-password`), who knows it: the rep
		 * chooses their own before the console opens. Cleared when they do.
		 */
		passwordTemporary: boolean('password_temporary').notNull().default(false)
	},
	(t) => [
		uniqueIndex('reps_email').on(sql`lower(${t.email})`),
		// One active account per rep number of an office: the merchant's pages name that one.
		uniqueIndex('reps_office_rep_no')
			.on(t.officeId, t.repNo)
			.where(sql`${t.disabledAt} is null`)
	]
);

/** A rep's signed-in session: the cookie holds a random token, this table holds its hash. */
export const repSessions = pgTable(
	'rep_sessions',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		tokenHash: text('token_hash').notNull(),
		repId: uuid('rep_id')
			.notNull()
			.references(() => reps.id),
		ip: text('ip'),
		userAgent: text('user_agent'),
		createdAt: ts('created_at').notNull().defaultNow(),
		lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
		closedAt: ts('closed_at')
	},
	(t) => [
		uniqueIndex('rep_sessions_token_hash').on(t.tokenHash),
		index('rep_sessions_rep').on(t.repId)
	]
);

/**
 * Why a tablet locked: the decision, the merchant's "Return to rep", idleness, or the signing
 * handed over on another device (`moved`), which goes on there.
 */
export type LockReason = 'finished' | 'returned' | 'idle' | 'moved';

/**
 * A tablet handed to a merchant: while a row is open (`endedAt` null) the rep's session, the
 * tablet's own cookie and the signing session each lead to it, so clearing one cookie changes
 * nothing. Locked (`lockedAt` set), the tablet shows only the lock screen until the rep's
 * password ends the row.
 */
export const handovers = pgTable(
	'in_person_handovers',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		/** The tablet cookie's token, hashed: a third way to the row beside the two sessions. */
		tokenHash: text('token_hash').notNull(),
		repSessionId: uuid('rep_session_id')
			.notNull()
			.references(() => repSessions.id),
		repId: uuid('rep_id')
			.notNull()
			.references(() => reps.id),
		signingSessionId: uuid('signing_session_id').notNull(),
		officeId: integer('office_id').notNull(),
		applicationId: integer('application_id').notNull(),
		startedAt: ts('started_at').notNull().defaultNow(),
		lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
		lockedAt: ts('locked_at'),
		lockReason: text('lock_reason').$type<LockReason>(),
		endedAt: ts('ended_at')
	},
	(t) => [
		uniqueIndex('in_person_handovers_token_hash').on(t.tokenHash),
		index('in_person_handovers_rep_session')
			.on(t.repSessionId)
			.where(sql`${t.endedAt} is null`),
		index('in_person_handovers_signing_session').on(t.signingSessionId)
	]
);
