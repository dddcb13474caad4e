import { sql } from 'drizzle-orm';
import {
	bigserial,
	boolean,
	index,
	integer,
	jsonb,
	pgTable,
	primaryKey,
	text,
	timestamp,
	uniqueIndex,
	uuid
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export type Channel = 'link' | 'in_person';

/** Emailed signing links. The token itself is never stored: only its SHA-256. */
export const signingLinks = pgTable(
	'signing_links',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		tokenHash: text('token_hash').notNull(),
		officeId: integer('office_id').notNull(),
		applicationId: integer('application_id').notNull(),
		email: text('email'),
		createdBy: text('created_by').notNull(),
		createdAt: ts('created_at').notNull().defaultNow(),
		expiresAt: ts('expires_at').notNull(),
		revokedAt: ts('revoked_at'),
		usedAt: ts('used_at')
	},
	(t) => [
		uniqueIndex('signing_links_token_hash').on(t.tokenHash),
		index('signing_links_application').on(t.officeId, t.applicationId)
	]
);

export interface PresentedSection {
	key: string;
	title: string;
	/** SHA-256 of the exact sanitized HTML that was shown. */
	sha256: string;
}

/** The sign step's fields as typed, kept across "Read the documents again". */
export interface SignDraft {
	firstName: string;
	lastName: string;
	email: string;
	notificationEmail: string;
	signature: string;
	checked: string[];
	/** Whether an SSN was typed when this was kept (never the number): the page asks for it again. */
	ssnTyped?: boolean;
}

/** A signing session: the cookie holds a random id, the table holds its hash and the progress. */
export const signingSessions = pgTable(
	'signing_sessions',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		tokenHash: text('token_hash').notNull(),
		/**
		 * The hash the session had before identity passed replaced it (see markPassed): a cookie
		 * that still holds the old secret is told what happened, and opens nothing.
		 */
		replacedTokenHash: text('replaced_token_hash'),
		channel: text('channel').$type<Channel>().notNull(),
		linkId: uuid('link_id'),
		repId: text('rep_id'),
		officeId: integer('office_id').notNull(),
		applicationId: integer('application_id').notNull(),
		/** The application's `RepNo` when the session started: whom the merchant's pages name. */
		repNo: integer('rep_no'),
		businessName: text('business_name').notNull(),
		ownerFirstName: text('owner_first_name').notNull().default(''),
		ownerLastName: text('owner_last_name').notNull().default(''),
		ownerEmail: text('owner_email').notNull().default(''),
		ip: text('ip'),
		userAgent: text('user_agent'),
		createdAt: ts('created_at').notNull().defaultNow(),
		lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
		termsVersion: text('terms_version'),
		termsShown: jsonb('terms_shown').$type<PresentedSection[]>(),
		termsShownAt: ts('terms_shown_at'),
		consentAt: ts('consent_at'),
		identityPassedAt: ts('identity_passed_at'),
		decisionId: uuid('decision_id'),
		/** Set when the merchant declined before identity passed (a `declines` row, no decision). */
		declineId: uuid('decline_id'),
		/**
		 * What was typed on the sign step when the merchant went to read the documents again, so
		 * the form comes back as they left it. Never the SSN.
		 */
		draft: jsonb('draft').$type<SignDraft>(),
		finishedAt: ts('finished_at'),
		closedAt: ts('closed_at')
	},
	(t) => [
		uniqueIndex('signing_sessions_token_hash').on(t.tokenHash),
		index('signing_sessions_replaced_token_hash').on(t.replacedTokenHash),
		index('signing_sessions_application').on(t.officeId, t.applicationId)
	]
);

/**
 * `pending`: reserved (no questions yet: the set is being fetched) or open (questions shown);
 * `answering`: the answers are on their way to the bureau. A try is used once the bureau judged
 * it (`failed`), the time ran out (`late`), or it may have judged it (`answering`).
 */
export type AttemptOutcome = 'pending' | 'answering' | 'passed' | 'failed' | 'late' | 'void';

/**
 * One identity-question attempt. The question set is kept encrypted only while the attempt is
 * open (to redraw the page); answers are never stored.
 */
export const identityAttempts = pgTable(
	'identity_attempts',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		officeId: integer('office_id').notNull(),
		applicationId: integer('application_id').notNull(),
		sessionId: uuid('session_id').notNull(),
		questionSetId: text('question_set_id').notNull(),
		questionsEnc: text('questions_enc'),
		startedAt: ts('started_at').notNull().defaultNow(),
		deadlineAt: ts('deadline_at').notNull(),
		outcome: text('outcome').$type<AttemptOutcome>().notNull().default('pending'),
		finishedAt: ts('finished_at')
	},
	(t) => [index('identity_attempts_application').on(t.officeId, t.applicationId, t.startedAt)]
);

export type DecisionStatus = 'pending' | 'delivered' | 'rejected';

/**
 * The merchant's decision and its delivery (the outbox). Written before the upstream POST; the
 * SSN is kept only encrypted, and wiped once delivered or refused for good.
 */
export const decisions = pgTable(
	'decisions',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		officeId: integer('office_id').notNull(),
		applicationId: integer('application_id').notNull(),
		sessionId: uuid('session_id').notNull(),
		isAccepted: boolean('is_accepted').notNull(),
		/** The full name the signer typed as their signature (accepted decisions only). */
		signature: text('signature'),
		/** The merchant-decision body without `MerchantSSN`. */
		body: jsonb('body').$type<Record<string, unknown>>().notNull(),
		ssnEnc: text('ssn_enc'),
		ssnLast4: text('ssn_last4').notNull(),
		declineReason: text('decline_reason'),
		status: text('status').$type<DecisionStatus>().notNull().default('pending'),
		attempts: integer('attempts').notNull().default(0),
		nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
		lockedUntil: ts('locked_until'),
		lastError: text('last_error'),
		lastStatus: integer('last_status'),
		merchantDecisionId: integer('merchant_decision_id'),
		responseMessage: text('response_message'),
		createdAt: ts('created_at').notNull().defaultNow(),
		deliveredAt: ts('delivered_at')
	},
	(t) => [
		uniqueIndex('decisions_application').on(t.officeId, t.applicationId),
		index('decisions_due')
			.on(t.nextAttemptAt)
			.where(sql`${t.status} = 'pending'`)
	]
);

/** Where the merchant was when they declined before identity passed. */
export type DeclineStage = 'link' | 'terms' | 'identity' | 'locked';

/**
 * A decline the portal records itself: before identity has passed, the service takes no decision
 * (it needs the signer's SSN), so the portal keeps it, ends the link and tells the rep. The
 * application's audit chain has a `decline.recorded` event naming this row.
 */
export const declines = pgTable(
	'declines',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		officeId: integer('office_id').notNull(),
		applicationId: integer('application_id').notNull(),
		sessionId: uuid('session_id').notNull(),
		linkId: uuid('link_id'),
		stage: text('stage').$type<DeclineStage>().notNull(),
		reason: text('reason'),
		createdAt: ts('created_at').notNull().defaultNow()
	},
	(t) => [index('declines_application').on(t.officeId, t.applicationId, t.createdAt)]
);

/** The evidence: one row per event, hash-chained per application. */
export const auditEvents = pgTable(
	'audit_events',
	{
		id: bigserial('id', { mode: 'number' }).primaryKey(),
		officeId: integer('office_id').notNull(),
		applicationId: integer('application_id').notNull(),
		seq: integer('seq').notNull(),
		at: ts('at').notNull(),
		type: text('type').notNull(),
		channel: text('channel').$type<Channel>(),
		ip: text('ip'),
		userAgent: text('user_agent'),
		rep: text('rep'),
		sessionId: uuid('session_id'),
		data: jsonb('data').$type<Record<string, unknown>>().notNull(),
		prevHash: text('prev_hash').notNull(),
		hash: text('hash').notNull()
	},
	(t) => [uniqueIndex('audit_events_chain').on(t.officeId, t.applicationId, t.seq)]
);

/** Fixed-window counters, shared by every instance. */
export const rateLimits = pgTable(
	'rate_limits',
	{
		key: text('key').notNull(),
		windowStart: ts('window_start').notNull(),
		count: integer('count').notNull().default(0)
	},
	(t) => [primaryKey({ columns: [t.key, t.windowStart] })]
);

/** Sanitized acceptance-language HTML, keyed by the hash of the raw HTML and sanitizer version. */
export const sanitizedHtml = pgTable('sanitized_html', {
	rawHash: text('raw_hash').primaryKey(),
	html: text('html').notNull(),
	sha256: text('sha256').notNull(),
	createdAt: ts('created_at').notNull().defaultNow()
});

/**
 * What the portal's keys must open, kept with the data (one row per key, by name): a box made
 * under the encryption key when it was first used with this database. See crypto/key-check.ts.
 */
export const keyChecks = pgTable('key_checks', {
	name: text('name').primaryKey(),
	box: text('box').notNull(),
	createdAt: ts('created_at').notNull().defaultNow()
});
