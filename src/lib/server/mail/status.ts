import { and, desc, eq, gt, or, sql } from 'drizzle-orm';
import type { AppContext } from '$lib/server/app';
import { decrypt } from '$lib/server/crypto/secretbox';
import type { Tx } from '$lib/server/db';
import { mailOutbox, type MailKind, type MailStatus } from '$lib/server/db/schema';
import type { Rendered } from './render';

export interface MailState {
	id: string;
	kind: MailKind;
	/** The link a link email or reminder carries. */
	linkId: string | null;
	/** Null for a rep's note not yet sent: the rep is looked up when it goes out. */
	to: string | null;
	subject: string;
	status: MailStatus;
	attempts: number;
	/** Why it failed or is being retried, in words a rep can read. */
	problem: string | null;
	createdAt: Date;
	sentAt: Date | null;
	/** When the next try is due, while it is pending. */
	nextAttemptAt: Date | null;
}

function stateOf(r: typeof mailOutbox.$inferSelect): MailState {
	return {
		id: r.id,
		kind: r.kind,
		linkId: r.linkId,
		to: r.to,
		subject: r.subject,
		status: r.status,
		attempts: r.attempts,
		problem: r.lastError,
		createdAt: r.createdAt,
		sentAt: r.sentAt,
		nextAttemptAt: r.status === 'pending' ? r.nextAttemptAt : null
	};
}

/**
 * For `/healthz`, in one statement: how many messages wait to be tried again after a failed
 * attempt (a mail server that cannot be reached shows at once), and how many failed for good in
 * the 24 hours before `now` (deliver.ts sets `nextAttemptAt` to when one fails), which would
 * otherwise only leave the first count as they fail. Not those that failed because mail is off
 * (MAIL_OFF): the operator chose that. Each half reads its own partial index, never the outbox's
 * sent mail.
 */
export async function mailTrouble(
	db: Tx,
	now = new Date()
): Promise<{ retrying: number; failed: number }> {
	const dayAgo = new Date(now.getTime() - 86_400_000);
	const retrying = and(eq(mailOutbox.status, 'pending'), gt(mailOutbox.attempts, 0));
	const failed = sql`${mailOutbox.status} = 'failed' and ${mailOutbox.nextAttemptAt} > ${dayAgo} and ${mailOutbox.lastCode} is distinct from 'MAIL_OFF'`;
	const [row] = await db
		.select({
			retrying: sql<number>`count(*) filter (where ${retrying})::int`,
			failed: sql<number>`count(*) filter (where ${failed})::int`
		})
		.from(mailOutbox)
		.where(or(retrying, failed));
	return { retrying: row?.retrying ?? 0, failed: row?.failed ?? 0 };
}

/** The application's mail, newest first, for the console: what went out, what is stuck, and why. */
export async function mailStatusFor(
	db: Tx,
	officeId: number,
	applicationId: number,
	limit = 50
): Promise<MailState[]> {
	const rows = await db
		.select()
		.from(mailOutbox)
		.where(and(eq(mailOutbox.officeId, officeId), eq(mailOutbox.applicationId, applicationId)))
		.orderBy(desc(mailOutbox.createdAt))
		.limit(limit);
	return rows.map(stateOf);
}

export interface MailboxMessage extends MailState {
	/** Whom a reply reaches: the rep the message names (see mail/rep-contact.ts), else none. */
	replyTo: string | null;
	body: Rendered | null;
}

/** The development mailbox: every message with its body, whatever its state, newest first. */
export async function listMailbox(ctx: AppContext, limit = 50): Promise<MailboxMessage[]> {
	const rows = await ctx.db
		.select()
		.from(mailOutbox)
		.orderBy(desc(mailOutbox.createdAt))
		.limit(limit);
	return rows.map((r) => ({
		...stateOf(r),
		replyTo: r.replyTo,
		body: r.bodyEnc ? (JSON.parse(decrypt(ctx.encryptionKey, r.bodyEnc)) as Rendered) : null
	}));
}

/** One message of the development mailbox, for its HTML view. */
export async function mailboxBody(ctx: AppContext, id: string): Promise<Rendered | undefined> {
	const [row] = await ctx.db
		.select({ bodyEnc: mailOutbox.bodyEnc })
		.from(mailOutbox)
		.where(eq(mailOutbox.id, id));
	return row?.bodyEnc
		? (JSON.parse(decrypt(ctx.encryptionKey, row.bodyEnc)) as Rendered)
		: undefined;
}
