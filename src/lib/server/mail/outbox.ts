import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { encrypt } from '$lib/server/crypto/secretbox';
import type { Db, Tx } from '$lib/server/db';
import { mailOutbox, type MailKind } from '$lib/server/db/schema';
import type { Rendered } from './render';

export type OutboxRow = typeof mailOutbox.$inferSelect;

export interface OutgoingMail extends Rendered {
	kind: MailKind;
	officeId: number | null;
	applicationId: number | null;
	linkId?: string | null;
	to: string;
	replyTo?: string | null;
	subject: string;
}

/**
 * Writes a message to the outbox; the worker sends it. Pass the caller's transaction so the
 * message commits (or not) with what it tells about. The body is stored encrypted: a link email's
 * body holds a usable token.
 */
export async function enqueueMail(
	tx: Tx,
	key: Buffer,
	mail: OutgoingMail,
	now = new Date()
): Promise<OutboxRow> {
	const [row] = await tx
		.insert(mailOutbox)
		.values({
			officeId: mail.officeId,
			applicationId: mail.applicationId,
			kind: mail.kind,
			linkId: mail.linkId ?? null,
			to: mail.to,
			replyTo: mail.replyTo ?? null,
			subject: mail.subject,
			bodyEnc: encrypt(key, JSON.stringify({ text: mail.text, html: mail.html })),
			createdAt: now,
			nextAttemptAt: now
		})
		.returning();
	return row!;
}

/** Takes a message's sending lease if nobody holds it; several instances may race for one row. */
export async function claimMail(db: Db, id: string, leaseMs: number, now = new Date()) {
	const [row] = await db
		.update(mailOutbox)
		.set({ lockedUntil: new Date(now.getTime() + leaseMs) })
		.where(
			and(
				eq(mailOutbox.id, id),
				eq(mailOutbox.status, 'pending'),
				or(isNull(mailOutbox.lockedUntil), lt(mailOutbox.lockedUntil, now))
			)
		)
		.returning();
	return row;
}
