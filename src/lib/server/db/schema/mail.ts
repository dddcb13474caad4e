import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { RepContact } from '../../reps/contact';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** `receipt`: the merchant's, of their decision (decisions/receipt.ts). */
export type MailKind = 'link' | 'reminder' | 'receipt' | RepNoteKind;
export type RepNoteKind = 'note.signed' | 'note.declined' | 'note.locked' | 'note.undelivered';
/** `cancelled`: a link or reminder whose link was used, revoked or expired before it went out. */
export type MailStatus = 'pending' | 'sent' | 'failed' | 'cancelled';
export type MailTransport = 'smtp' | 'mailbox';

/**
 * The mail outbox: every message is written here (in the caller's transaction when there is one)
 * and sent by the background worker under a lease. The body is kept only encrypted, and only
 * while it is needed: wiped once an SMTP server has it or the message has failed for good; on
 * embedded defaults it stays, because the development mailbox is where it is read.
 */
export const mailOutbox = pgTable(
	'mail_outbox',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		officeId: integer('office_id'),
		applicationId: integer('application_id'),
		kind: text('kind').$type<MailKind>().notNull(),
		linkId: uuid('link_id'),
		/** Null: the application's rep, looked up when the message is sent. */
		to: text('to'),
		replyTo: text('reply_to'),
		subject: text('subject').notNull(),
		/** `{ text, html }` as JSON, AES-256-GCM (crypto/secretbox). */
		bodyEnc: text('body_enc'),
		/** A rep note's facts, written into a message once the rep is known; wiped after. */
		data: jsonb('data').$type<Record<string, unknown>>(),
		status: text('status').$type<MailStatus>().notNull().default('pending'),
		transport: text('transport').$type<MailTransport>(),
		attempts: integer('attempts').notNull().default(0),
		nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
		lockedUntil: ts('locked_until'),
		/** Why the last attempt failed, in our words (never the mail library's message). */
		lastError: text('last_error'),
		/** The error's class: nodemailer's code and the SMTP reply code, e.g. `EENVELOPE 550`. */
		lastCode: text('last_code'),
		createdAt: ts('created_at').notNull().defaultNow(),
		sentAt: ts('sent_at')
	},
	(t) => [
		index('mail_outbox_due')
			.on(t.nextAttemptAt)
			.where(sql`${t.status} = 'pending'`),
		// /healthz's count of mail failed for good in the last day (mail/status.ts), every few
		// seconds on every instance, without reading the outbox's sent mail.
		index('mail_outbox_failed')
			.on(t.nextAttemptAt)
			.where(sql`${t.status} = 'failed'`),
		index('mail_outbox_application').on(t.officeId, t.applicationId, t.createdAt)
	]
);

/** The rep (or office contact) a reminder names, kept as the link email named them. */
export type ReminderRep = RepContact;

/**
 * The reminder plan of an emailed link. The link's URL (a usable token) is kept encrypted only
 * while a reminder may still go out, and wiped when the plan ends: sent out, expired, revoked,
 * replaced or decided.
 */
export const linkReminders = pgTable(
	'link_reminders',
	{
		linkId: uuid('link_id').primaryKey(),
		officeId: integer('office_id').notNull(),
		applicationId: integer('application_id').notNull(),
		to: text('to').notNull(),
		business: text('business').notNull(),
		/** Who the greeting names ("Hello Dana Whitfield,"); null: "Hello,". See links/email.ts. */
		greet: text('greet'),
		rep: jsonb('rep').$type<ReminderRep>(),
		urlEnc: text('url_enc'),
		expiresAt: ts('expires_at').notNull(),
		sent: integer('sent').notNull().default(0),
		/** Null once the plan has ended. */
		nextAt: ts('next_at'),
		createdAt: ts('created_at').notNull().defaultNow()
	},
	(t) => [
		index('link_reminders_due')
			.on(t.nextAt)
			.where(sql`${t.nextAt} is not null`),
		index('link_reminders_application').on(t.officeId, t.applicationId)
	]
);
