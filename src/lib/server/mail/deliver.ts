import { and, asc, count, eq, isNull, lt, lte, or } from 'drizzle-orm';
import type { AppContext } from '$lib/server/app';
import { appendAudit } from '$lib/server/audit/audit';
import { decrypt, encrypt } from '$lib/server/crypto/secretbox';
import { decisionFor } from '$lib/server/decisions/decisions';
import { mailOutbox, signingLinks } from '$lib/server/db/schema';
import { mailMode } from './mode';
import { renderNote } from './notes';
import { claimMail, type OutboxRow } from './outbox';
import { repDirectory, type RepDirectory } from './rep-contact';
import type { Rendered } from './render';
import { classifySendError, SMTP_WORST_MS, smtpSender, UNREACHABLE, type Sender } from './smtp';

export type MailResult = 'sent' | 'retry' | 'failed' | 'cancelled' | 'busy';

export interface DeliverOptions {
	/** Shared by a batch; made (and closed) per message otherwise. */
	sender?: Sender;
	directory?: RepDirectory;
}

/** The slowest send plus the slowest rep lookup (an upstream call), with room to spare. */
const leaseMs = (ctx: AppContext) => SMTP_WORST_MS + ctx.config.ONBOARDING_TIMEOUT_MS + 30_000;

export function mailBackoffMs(ctx: AppContext, attempts: number): number {
	const base = ctx.config.MAIL_RETRY_SECONDS * 1000;
	return Math.min(base * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/** A link email or reminder must not go out once its link can no longer be used. */
async function linkGone(ctx: AppContext, m: OutboxRow, now: Date): Promise<string | null> {
	if (!m.linkId) return null;
	const [link] = await ctx.db.select().from(signingLinks).where(eq(signingLinks.id, m.linkId));
	if (!link) return 'the link no longer exists';
	if (link.usedAt) return 'a decision was recorded before the email went out';
	if (link.revokedAt) return 'the link was revoked or replaced before the email went out';
	if (link.expiresAt <= now) return 'the link expired before the email could be sent';
	const decided = await decisionFor(ctx.db, link.officeId, link.applicationId);
	return decided ? 'a decision was recorded before the email went out' : null;
}

/** Notes of a decision (a decline before identity is not one: it stays with the portal). */
const DECIDED_NOTES = new Set(['note.signed', 'note.declined']);

function consoleUrl(ctx: AppContext, m: OutboxRow): string | null {
	const origin = ctx.config.ORIGIN;
	return origin && m.applicationId ? `${origin}/rep/applications/${m.applicationId}` : null;
}

/**
 * Sends one message. At most one instance holds its lease; a message the server accepted is
 * marked sent and its body wiped. A crash between the two can send it again: mail is delivered
 * at least once, never silently dropped.
 */
export async function deliverMail(
	ctx: AppContext,
	id: string,
	opts: DeliverOptions = {},
	now = new Date()
): Promise<MailResult> {
	const m = await claimMail(ctx.db, id, leaseMs(ctx), now);
	if (!m) return 'busy';
	const mode = mailMode(ctx.config);
	const attempts = m.attempts + 1;
	const update = (set: Partial<OutboxRow>) =>
		ctx.db
			.update(mailOutbox)
			.set({ ...set, attempts, lockedUntil: null })
			.where(eq(mailOutbox.id, m.id));
	const end = async (
		status: 'failed' | 'cancelled',
		reason: string,
		code: string | null
	): Promise<MailResult> => {
		await ctx.db.transaction(async (tx) => {
			await tx
				.update(mailOutbox)
				.set({
					status,
					attempts,
					lockedUntil: null,
					// When it ended: /healthz counts mail failed in the last day by it (mail/status.ts).
					nextAttemptAt: now,
					lastError: reason,
					lastCode: code,
					bodyEnc: null,
					data: null
				})
				.where(eq(mailOutbox.id, m.id));
			// The trail shows that the merchant's link email did not go out (a rep's note is the
			// rep's own business, and the merchant's receipt comes after the decision the trail
			// ends with: both stay in the outbox, which the rep's page lists).
			if (
				status === 'failed' &&
				m.officeId &&
				m.applicationId &&
				(m.kind === 'link' || m.kind === 'reminder')
			) {
				await appendAudit(tx, {
					officeId: m.officeId,
					applicationId: m.applicationId,
					type: 'mail.failed',
					data: { mailId: m.id, kind: m.kind, reason, attempts },
					at: now
				});
			}
		});
		// A message cancelled before it was sent (its link replaced, say) was never tried.
		const tried = status === 'cancelled' ? '' : ` after ${attempts} attempt(s)`;
		const line = `[mail] ${m.kind} ${m.id}${forApplication(m)} ${status}${tried}: ${logged(reason, code, ctx.config.SMTP_URL)}`;
		if (status === 'failed') console.error(line);
		else console.info(line);
		return status;
	};
	/**
	 * Marks it sent; a link's email and its reminders also go on the trail now, when the mail
	 * server (or the development mailbox) has them, not when they were queued.
	 */
	const sent = async (
		set: Pick<OutboxRow, 'transport' | 'to' | 'bodyEnc'>
	): Promise<MailResult> => {
		await ctx.db.transaction(async (tx) => {
			await tx
				.update(mailOutbox)
				.set({
					...set,
					status: 'sent',
					attempts,
					lockedUntil: null,
					sentAt: now,
					data: null,
					lastError: null,
					lastCode: null
				})
				.where(eq(mailOutbox.id, m.id));
			if ((m.kind === 'link' || m.kind === 'reminder') && m.officeId && m.applicationId) {
				const data: Record<string, unknown> = { linkId: m.linkId, to: set.to, mailId: m.id };
				if (m.kind === 'reminder' && m.linkId) {
					// Which of the link's reminders this is, in the order they were queued.
					const [row] = await tx
						.select({ n: count() })
						.from(mailOutbox)
						.where(
							and(
								eq(mailOutbox.linkId, m.linkId),
								eq(mailOutbox.kind, 'reminder'),
								lte(mailOutbox.createdAt, m.createdAt)
							)
						);
					data.reminder = row?.n ?? null;
				}
				await appendAudit(tx, {
					officeId: m.officeId,
					applicationId: m.applicationId,
					type: m.kind === 'link' ? 'link.sent' : 'link.reminded',
					channel: 'link',
					at: now,
					data
				});
			}
		});
		return 'sent';
	};
	const retry = async (reason: string, code: string | null): Promise<MailResult> => {
		if (attempts >= ctx.config.MAIL_MAX_ATTEMPTS) return end('failed', reason, code);
		const next = new Date(now.getTime() + mailBackoffMs(ctx, attempts));
		await update({ lastError: reason, lastCode: code, nextAttemptAt: next });
		// Said at every attempt: an unreachable mail server is the operator's to mend, and with the
		// defaults the last attempt comes about two hours after the first.
		console.warn(
			`[mail] ${m.kind} ${m.id}${forApplication(m)} not sent, attempt ${attempts} of ${ctx.config.MAIL_MAX_ATTEMPTS}, next at ${next.toISOString()}: ${logged(reason, code, ctx.config.SMTP_URL)}`
		);
		return 'retry';
	};

	if (mode === 'off') return end('failed', 'mail is off: no SMTP server is configured', 'MAIL_OFF');
	const gone = await linkGone(ctx, m, now);
	if (gone) return end('cancelled', gone, null);

	let to = m.to;
	let body: Rendered;
	if (m.data) {
		let rep;
		try {
			const named = (m.data as { repNo?: number | null }).repNo;
			rep = await (opts.directory ?? repDirectory(ctx))(m.officeId!, m.applicationId!, named);
		} catch (err) {
			return retry('the rep could not be looked up', errorClass(err));
		}
		if (!rep)
			return end(
				'failed',
				'no rep with an email address is on record for this application',
				'NO_REP'
			);
		to = rep.email;
		body = renderNote(m.data, m.officeId!, m.applicationId!, {
			repName: rep.name,
			timeZone: ctx.config.OFFICE_TIME_ZONE,
			// The office contact (no rep account) need not be a console user.
			consoleUrl: rep.office ? null : consoleUrl(ctx, m),
			// Unread (the database failing here), the note says what holds either way.
			delivery: DECIDED_NOTES.has(m.kind)
				? await decisionFor(ctx.db, m.officeId!, m.applicationId!).then(
						(d) => d ?? null,
						() => null
					)
				: null
		});
	} else if (m.bodyEnc && to) {
		body = JSON.parse(decrypt(ctx.encryptionKey, m.bodyEnc)) as Rendered;
	} else {
		return end('failed', 'the message has no body or no recipient', 'EMPTY');
	}

	if (mode === 'mailbox') {
		// Embedded defaults: the development mailbox is the recipient, so the body stays.
		return sent({
			transport: 'mailbox',
			to,
			bodyEnc: encrypt(ctx.encryptionKey, JSON.stringify(body))
		});
	}

	const sender = opts.sender ?? smtpSender(ctx.config.SMTP_URL!);
	try {
		await sender.send({
			from: ctx.config.MAIL_FROM,
			to,
			replyTo: m.replyTo,
			subject: m.subject,
			text: body.text,
			html: body.html
		});
	} catch (err) {
		const failure = classifySendError(err);
		if (!failure.transient) return end('failed', failure.reason, failure.code);
		return retry(failure.reason, failure.code);
	} finally {
		if (!opts.sender) sender.close();
	}
	return sent({ transport: 'smtp', to, bodyEnc: null });
}

/** A mail log line's reason, with its code when there is one. */
const said = (reason: string, code: string | null) => (code ? `${reason} (${code})` : reason);

/**
 * Where the mail server is, for the log's line on a server that could not be reached: SMTP_URL's
 * host and port, never its user or password.
 */
function smtpHost(smtpUrl: string | undefined): string {
	try {
		const url = new URL(smtpUrl ?? '');
		return ` at ${url.hostname}${url.port ? `:${url.port}` : ''}`;
	} catch {
		return '';
	}
}

/** A reason as the log says it: with the mail server's address when it could not be reached. */
const logged = (reason: string, code: string | null, smtpUrl: string | undefined) =>
	said(reason === UNREACHABLE ? `${reason}${smtpHost(smtpUrl)}` : reason, code);

/** An error's class for logs and the outbox: its code or HTTP status, else its name. */
export function errorClass(err: unknown): string {
	const e = (err ?? {}) as { code?: unknown; status?: unknown };
	const name = err instanceof Error ? err.name : 'unknown error';
	if (typeof e.code === 'string') return `${name} ${e.code}`;
	if (typeof e.status === 'number') return `${name} HTTP ${e.status}`;
	return name;
}

/** Sends every message that is due, oldest first; instances can run this side by side. */
export async function deliverMailDue(
	ctx: AppContext,
	now = new Date(),
	opts: Omit<DeliverOptions, 'sender'> = {}
): Promise<Record<MailResult, number>> {
	const due = await ctx.db
		.select({ id: mailOutbox.id })
		.from(mailOutbox)
		.where(
			and(
				eq(mailOutbox.status, 'pending'),
				lte(mailOutbox.nextAttemptAt, now),
				or(isNull(mailOutbox.lockedUntil), lt(mailOutbox.lockedUntil, now))
			)
		)
		.orderBy(asc(mailOutbox.nextAttemptAt))
		.limit(20);
	const counts: Record<MailResult, number> = {
		sent: 0,
		retry: 0,
		failed: 0,
		cancelled: 0,
		busy: 0
	};
	if (due.length === 0) return counts;
	const sender = mailMode(ctx.config) === 'smtp' ? smtpSender(ctx.config.SMTP_URL!) : undefined;
	try {
		for (const { id } of due) counts[await deliverMail(ctx, id, { ...opts, sender }, now)]++;
	} finally {
		sender?.close();
	}
	return counts;
}

/** Which application a message is about, for the log (a rep's note and a receipt have one too). */
function forApplication(m: { officeId: number | null; applicationId: number | null }): string {
	return m.applicationId ? ` for application ${m.applicationId} (office ${m.officeId})` : '';
}
