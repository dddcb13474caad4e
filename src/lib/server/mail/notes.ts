import { and, eq, gt } from 'drizzle-orm';
import { holdApplication } from '$lib/server/audit/audit';
import type { Tx } from '$lib/server/db';
import { mailOutbox, type DecisionStatus, type RepNoteKind } from '$lib/server/db/schema';
import { officeTime, renderEmail, type Block, type Rendered } from './render';

/** What happened, as the rep is told it. Nothing here is secret; the SSN is never part of it. */
export type RepNote =
	/** `owner`: the owner the application names, when the signer typed other names. */
	| { kind: 'signed'; signer: string; owner?: string | null }
	| {
			kind: 'declined';
			signer: string;
			owner?: string | null;
			reason: string | null;
			/**
			 * A decline before identity passed: `link` when it came from a signing link, so anyone
			 * holding the link could have pressed it; `in_person` on the rep's tablet.
			 */
			beforeIdentity?: 'link' | 'in_person';
	  }
	| { kind: 'locked'; until: Date | null }
	| { kind: 'undelivered'; status: number | null };

export type NoteInput = RepNote & {
	officeId: number;
	applicationId: number;
	business: string;
	/**
	 * The rep the merchant's pages named (the session's: who sent the link, or whose tablet it
	 * was), told rather than the application's own rep while they have an active account.
	 */
	repNo?: number | null;
	/** Skip the note when one of the same kind for the application was written after this. */
	onceSince?: Date;
	at?: Date;
};

/**
 * Queues a note to the application's rep, in the caller's transaction (the decision and its note
 * commit together). The rep is looked up and the message written when the worker sends it.
 */
export async function notifyRep(tx: Tx, input: NoteInput): Promise<boolean> {
	const { officeId, applicationId, business, onceSince, at = new Date(), ...note } = input;
	const kind: RepNoteKind = `note.${note.kind}`;
	return tx.transaction(async (t) => {
		if (onceSince) {
			// The audit chain's per-application lock: two instances cannot both find "no note yet".
			await holdApplication(t, officeId, applicationId);
			const [earlier] = await t
				.select({ id: mailOutbox.id })
				.from(mailOutbox)
				.where(
					and(
						eq(mailOutbox.officeId, officeId),
						eq(mailOutbox.applicationId, applicationId),
						eq(mailOutbox.kind, kind),
						gt(mailOutbox.createdAt, onceSince)
					)
				)
				.limit(1);
			if (earlier) return false;
		}
		const data = {
			...note,
			business,
			...('until' in note ? { until: note.until?.toISOString() ?? null } : {})
		};
		await t.insert(mailOutbox).values({
			officeId,
			applicationId,
			kind,
			to: null,
			subject: subjectOf(note.kind, business),
			data,
			createdAt: at,
			nextAttemptAt: at
		});
		return true;
	});
}

function subjectOf(kind: RepNote['kind'], business: string): string {
	switch (kind) {
		case 'signed':
			return `Signed: ${business}`;
		case 'declined':
			return `Declined: ${business}`;
		case 'locked':
			return `Identity questions locked: ${business}`;
		case 'undelivered':
			return `Action needed: the decision for ${business} was not delivered`;
	}
}

/** A paragraph when the signer typed other names than the owner's (see recordDecision). */
function notTheOwner(note: { owner?: string | null }): Block[] {
	if (!note.owner) return [];
	return [
		{
			kind: 'p',
			text: `Those are not the names of the owner the application names, ${note.owner}, whom the identity questions were about.`
		}
	];
}

/**
 * Who declined, as far as the portal knows. After identity passed, the signer; on the rep's
 * tablet, the merchant in front of the rep; from a link before identity, whoever held the link,
 * since nobody's identity had been confirmed.
 */
function declinedBlocks(
	note: Extract<RepNote, { kind: 'declined' }>,
	what: string,
	delivery: NoteContext['delivery']
): Block[] {
	if (note.beforeIdentity === 'link') {
		return [
			{
				kind: 'p',
				text: `The application for {strong} was declined from its signing link, before the identity questions confirmed who was signing. The application names ${note.signer} as its owner. Nothing went to the onboarding service.`,
				strong: what
			}
		];
	}
	if (note.beforeIdentity === 'in_person') {
		return [
			{
				kind: 'p',
				text: `${note.signer} declined the application for {strong} in person on your tablet, before the identity questions. Nothing went to the onboarding service.`,
				strong: what
			}
		];
	}
	return [
		{
			kind: 'p',
			text: `${note.signer} declined the application for {strong}. ${deliveryWords(delivery)}`,
			strong: what
		},
		...notTheOwner(note)
	];
}

export interface NoteContext {
	repName: string;
	timeZone: string;
	/** The console page of the application, when the portal knows its public address. */
	consoleUrl: string | null;
	/** The decision's delivery as the note is written (a note of a decision; null: none on record). */
	delivery?: { status: DecisionStatus; merchantDecisionId: number | null } | null;
}

/** Where the signed decision stands with the service, in words true when the email is written. */
function deliveryWords(d: NoteContext['delivery']): string {
	if (d?.status === 'delivered') {
		return d.merchantDecisionId === null
			? 'The onboarding service has received the decision.'
			: `The onboarding service has received the decision, as decision no. ${d.merchantDecisionId}.`;
	}
	if (d?.status === 'rejected') {
		return 'The onboarding service did not take the decision: the portal writes to you about it separately.';
	}
	return 'The decision goes to the onboarding service; if the service refuses it, the portal writes to you again.';
}

/** Writes a stored note out as an email, now that the rep is known. */
export function renderNote(
	data: Record<string, unknown>,
	officeId: number,
	applicationId: number,
	c: NoteContext
): Rendered {
	const note = data as unknown as RepNote & { business: string; until?: string | null };
	const what = `${note.business} (office ${officeId}, application ${applicationId})`;
	const blocks: Block[] = [{ kind: 'p', text: `Hello ${c.repName},` }];
	let title: string;
	switch (note.kind) {
		case 'signed':
			title = 'Your merchant signed';
			// Written when the worker sends it: by then the decision may be delivered, or refused.
			blocks.push({
				kind: 'p',
				text: `${note.signer} accepted and signed the application for {strong}. ${deliveryWords(c.delivery)}`,
				strong: what
			});
			blocks.push(...notTheOwner(note));
			break;
		case 'declined':
			title = 'Your merchant declined';
			blocks.push(...declinedBlocks(note, what, c.delivery));
			if (note.reason) {
				blocks.push({ kind: 'p', text: 'Their reason:' }, { kind: 'quote', text: note.reason });
			} else {
				blocks.push({ kind: 'p', text: 'They gave no reason.' });
			}
			break;
		case 'locked': {
			title = 'Identity questions locked';
			const until = note.until ? new Date(note.until) : null;
			blocks.push({
				kind: 'p',
				text: until
					? `The signer for {strong} did not pass the credit bureau's identity questions and is locked out of them until ${officeTime(until, c.timeZone)}.`
					: `The credit bureau has locked the identity questions for {strong}.`,
				strong: what
			});
			blocks.push({
				kind: 'p',
				text: 'The questions stay locked on every device until then, in person too: once the lock lifts, they can try again from their link, or with you in person.'
			});
			break;
		}
		case 'undelivered':
			title = 'A decision was not delivered';
			blocks.push({
				kind: 'p',
				text: `The onboarding service refused the merchant's decision for {strong}${note.status ? ` (HTTP ${note.status})` : ''}. The portal will not try again.`,
				strong: what
			});
			blocks.push({
				kind: 'p',
				text: 'The decision and its evidence are kept in the portal. Please contact the onboarding service to have it recorded.'
			});
			break;
	}
	if (c.consoleUrl)
		blocks.push({ kind: 'small', text: 'Open it in the console:', href: c.consoleUrl });
	return renderEmail({ title, blocks });
}
