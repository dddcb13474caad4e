import type { Handover } from '$lib/server/inperson/handover';
import type { RepContact } from '$lib/server/reps/contact';
import type { EndedRepSession, SignedInRep } from '$lib/server/reps/session';
import type { EndedSession, SigningSession, Step } from '$lib/server/signing/session';

// See https://svelte.dev/docs/kit/types#app.d.ts
declare global {
	namespace App {
		interface Error {
			message: string;
			/** A title of the page's own, where the status's usual one would mislead. */
			title?: string;
			errorId?: string;
			/** A refused console search, as it may be shown back in a box to search again. */
			search?: string;
			/** The rep a refusal points to, when the page knows the application. */
			rep?: RepContact | null;
			/**
			 * A link used up by a decision made in this browser: the done page still shows it, with
			 * the copies, for this many minutes after the merchant left it.
			 */
			doneWithin?: number;
			/** An expired link whose session in this browser is still open: the step to go on at. */
			resume?: Step;
		}
		interface Locals {
			/** The signing session of the cookie, when there is an open one. */
			signing: SigningSession | undefined;
			/** The session of the cookie when it has ended, so its pages can say why (/sign only). */
			signingEnded: EndedSession | undefined;
			/**
			 * The done step's PDFs only: the application's audit-chain head, read with the session
			 * (the documents are kept under it), and the session it was read with.
			 */
			signingChainHead?: { sessionId: string; head: string | null };
			/** The signed-in rep (rep pages only). */
			rep: SignedInRep | undefined;
			/** Why, and whose, the session of a rep's cookie is over, when it is and that is known. */
			repEnded?: EndedRepSession | null;
			/** The in-person hand-over this browser (a rep's tablet) is locked to, if any. */
			handover: Handover | undefined;
			/** Set by handleError when the request failed for the database being away: 503. */
			databaseAway?: boolean;
		}
	}
}

export {};
