import { eq } from 'drizzle-orm';
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
