import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Tx } from '$lib/server/db';
import { signingSessions, type SignDraft } from '$lib/server/db/schema';
import type { SigningSession } from './session';

/** Keeps what was typed on the sign step (never the SSN) while the merchant looks elsewhere. */
export async function saveDraft(db: Tx, session: SigningSession, draft: SignDraft): Promise<void> {
	await db.update(signingSessions).set({ draft }).where(eq(signingSessions.id, session.id));
}

/** The sign step's fields as the merchant left them, else as the application gives them. */
export function draftOf(s: SigningSession): SignDraft {
	return (
		s.draft ?? {
			firstName: s.ownerFirstName,
			lastName: s.ownerLastName,
			email: s.ownerEmail,
			notificationEmail: s.ownerEmail,
			signature: '',
			checked: []
		}
	);
}

/**
 * What the last session on `linkId` kept of the sign step, for a new session on the same link:
 * a merchant whose session ended (idle, or the day's limit) while filling in the form opens their
 * link again and finds their names, emails and signature as they left them. Not the ticks: they
 * accepted sections of the agreement as it was shown then, and are given again on the agreement
 * as it is shown now. Null when nothing was kept.
 */
export async function draftLeftOn(db: Tx, linkId: string): Promise<SignDraft | null> {
	const [row] = await db
		.select({ draft: signingSessions.draft })
		.from(signingSessions)
		.where(and(eq(signingSessions.linkId, linkId), isNotNull(signingSessions.draft)))
		.orderBy(desc(signingSessions.lastSeenAt))
		.limit(1);
	if (!row?.draft) return null;
	const { firstName, lastName, email, notificationEmail, signature } = row.draft;
	return { firstName, lastName, email, notificationEmail, signature, checked: [] };
}

/**
 * Keeps what a post from an ended session's sign step held (idle, or past the day's limit: the
 * merchant pressed Accept after a long read elsewhere) on that session, for draftLeftOn: only a
 * link's session, past identity and undecided. True when it was kept.
 */
export async function keepEndedDraft(
	db: Tx,
	sessionId: string,
	draft: SignDraft
): Promise<boolean> {
	const rows = await db
		.update(signingSessions)
		.set({ draft })
		.where(
			and(
				eq(signingSessions.id, sessionId),
				eq(signingSessions.channel, 'link'),
				isNotNull(signingSessions.identityPassedAt),
				isNull(signingSessions.decisionId),
				isNull(signingSessions.declineId)
			)
		)
		.returning({ id: signingSessions.id });
	return rows.length === 1;
}
