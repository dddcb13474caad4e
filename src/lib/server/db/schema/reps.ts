import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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
		passwordChangedAt: ts('password_changed_at').notNull().defaultNow()
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
