import {
	bigserial,
	boolean,
	index,
	integer,
	json,
	jsonb,
	pgTable,
	primaryKey,
	text,
	timestamp,
	uniqueIndex
} from 'drizzle-orm/pg-core';

// The embedded sandbox's tables (owned by src/lib/server/sandbox). Every piece of sandbox state
// is here, not in process memory, because several portal instances may serve the same sandbox.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Id allocators (applications, terminals, decisions): one row each, bumped atomically. */
export const sandboxCounters = pgTable('sandbox_counters', {
	name: text('name').primaryKey(),
	value: integer('value').notNull()
});

/** How a demo application behaves in the identity check. */
export type SandboxScenario = 'ordinary' | 'identity_fails' | 'bureau_unavailable';

/**
 * An owner's SSN as the sandbox keeps it: the last four digits only. (Rows written before
 * 2026-11-28 also hold an unkeyed `sha256`, which nothing reads.)
 */
export interface SandboxSsnDigest {
	last4: string;
}

/**
 * Applications, in the service's response form (`json`, not `jsonb`, to keep the field order
 * for the PDF). The owners' SSN fields are stored as null; their
 * digests are in `ownerSsns` (the PDF shows the last four). `submitted` keeps the groups the
 * service answers null although they were sent (OtherFees, BillingService), for the PDF.
 */
export const sandboxApplications = pgTable(
	'sandbox_applications',
	{
		id: integer('id').primaryKey(),
		officeId: integer('office_id').notNull(),
		scenario: text('scenario').$type<SandboxScenario>().notNull().default('ordinary'),
		document: json('document').$type<Record<string, unknown>>().notNull(),
		ownerSsns: jsonb('owner_ssns')
			.$type<{ Ownr1?: SandboxSsnDigest; Ownr2?: SandboxSsnDigest }>()
			.notNull(),
		submitted: json('submitted').$type<Record<string, unknown>>().notNull(),
		createdAt: ts('created_at').notNull()
	},
	(t) => [index('sandbox_applications_office').on(t.officeId, t.id)]
);

export interface SandboxQuestion {
	QuestionID: number;
	Prompt: string;
	Choices: { ChoiceID: number; Text: string }[];
}

export type SandboxIdentityOutcome = 'passed' | 'failed' | 'late';

/** Identity question sets handed out, with their right answers (sandbox only). */
export const sandboxQuestionSets = pgTable(
	'sandbox_question_sets',
	{
		id: text('id').primaryKey(),
		officeId: integer('office_id').notNull(),
		applicationId: integer('application_id').notNull(),
		questions: jsonb('questions').$type<SandboxQuestion[]>().notNull(),
		answers: jsonb('answers').$type<{ QuestionID: number; ChoiceID: number }[]>().notNull(),
		createdAt: ts('created_at').notNull(),
		expiresAt: ts('expires_at').notNull(),
		answeredAt: ts('answered_at'),
		outcome: text('outcome').$type<SandboxIdentityOutcome>()
	},
	(t) => [index('sandbox_question_sets_application').on(t.officeId, t.applicationId)]
);

/**
 * Merchant decisions as received, except `MerchantSSN`, which is replaced by its SHA-256 and last
 * four digits: an SSN a merchant typed never reaches the database in plain text.
 */
export const sandboxDecisions = pgTable(
	'sandbox_decisions',
	{
		id: integer('id').primaryKey(),
		officeId: integer('office_id').notNull(),
		applicationId: integer('application_id').notNull(),
		isAccepted: boolean('is_accepted').notNull(),
		body: json('body').$type<Record<string, unknown>>().notNull(),
		/** The HMAC of the SSN's digits (see sandbox/ssn.ts); the column keeps its first name. */
		ssnHmac: text('ssn_sha256').notNull(),
		ssnLast4: text('ssn_last4').notNull(),
		receivedAt: ts('received_at').notNull()
	},
	(t) => [uniqueIndex('sandbox_decisions_application').on(t.officeId, t.applicationId)]
);

/** Injected failures per operation, set through the control API. */
export const sandboxFaults = pgTable('sandbox_faults', {
	operation: text('operation').primaryKey(),
	status: integer('status'),
	latencyMs: integer('latency_ms'),
	hang: boolean('hang').notNull().default(false),
	body: text('body'),
	contentType: text('content_type')
});

/** Per-office overrides of one acceptance-language section (html absent = keep the default). */
export const sandboxAcceptanceOverrides = pgTable(
	'sandbox_acceptance_overrides',
	{
		officeId: integer('office_id').notNull(),
		section: text('section').notNull(),
		override: jsonb('override').$type<{ html?: string | null; presented?: boolean }>().notNull()
	},
	(t) => [primaryKey({ columns: [t.officeId, t.section] })]
);

/** Sandbox settings (e.g. `timeLimitSeconds`), one row per key. */
export const sandboxSettings = pgTable('sandbox_settings', {
	key: text('key').primaryKey(),
	value: jsonb('value').$type<unknown>().notNull()
});

/** A log of calls to the service operations: method, path, status, time. Never bodies. */
export const sandboxRequests = pgTable(
	'sandbox_requests',
	{
		id: bigserial('id', { mode: 'number' }).primaryKey(),
		method: text('method').notNull(),
		path: text('path').notNull(),
		operation: text('operation'),
		status: integer('status'),
		at: ts('at').notNull(),
		durationMs: integer('duration_ms')
	},
	(t) => [index('sandbox_requests_path').on(t.path, t.id)]
);
