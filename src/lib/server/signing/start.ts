import type { AppContext } from '$lib/server/app';
import { appendAudit } from '$lib/server/audit/audit';
import type { Tx } from '$lib/server/db';
import type { Channel, SignDraft } from '$lib/server/db/schema';
import type { RequestMeta } from '$lib/server/http/meta';
import { earlierPass } from '$lib/server/identity/attempts';
import { isDecided, type ApplicationListItem } from '$lib/server/onboarding';
import { businessName, findApplication } from './application';
import { draftLeftOn } from './draft';
import { sessionEvent } from './event';
import { createSession, type SigningSession } from './session';

export interface StartSigning {
	officeId: number;
	applicationId: number;
	channel: Channel;
	/** The link whose Start was pressed (channel `link`). */
	linkId: string | null;
	/** The rep who hands their device over (channel `in_person`). */
	repId: string | null;
	/**
	 * The rep the merchant's pages name, when not the application's own: who sent the link, or
	 * who hands over their device.
	 */
	repNo?: number | null;
	/** Channel `in_person`: who handed over and what they checked (evidence/facts.ts). */
	inPerson?: InPersonAttestation;
	meta: RequestMeta;
}

export interface InPersonAttestation {
	repId: string;
	repNo: number;
	repName: string;
	photoIdChecked: true;
	idType: string | null;
	idLast4: string | null;
}

export type StartRefusal =
	/** The service could not be reached: nothing was written, the merchant may try again. */
	| 'unavailable'
	| 'not_found'
	| 'decided'
	/** Identity passed on a link this one cannot carry it from (see `earlierPass`). */
	| 'identity_elsewhere'
	/** Passed in person, which no link carries over. */
	| 'identity_in_person';

export type StartResult =
	| { ok: true; secret: string; session: SigningSession }
	| { ok: false; reason: StartRefusal; item: ApplicationListItem | undefined };

/** What startChecks found: the session may be written (openSession) with these. */
export type StartChecked =
	| { ok: true; item: ApplicationListItem; draft: SignDraft | null }
	| { ok: false; reason: StartRefusal; item: ApplicationListItem | undefined };

/**
 * Starts a signing session: the one way in, for the link page's Start and the rep's in-person
 * hand-over alike. Checks the application with the service, then writes the session and its
 * audit events in one transaction. The returned secret is for the session cookie only.
 */
export async function startSigningSession(
	ctx: AppContext,
	input: StartSigning,
	now = new Date()
): Promise<StartResult> {
	const checked = await startChecks(ctx, input);
	if (!checked.ok) return checked;
	const { secret, session } = await ctx.db.transaction((tx) =>
		openSession(tx, input, checked.item, now, checked.draft)
	);
	return { ok: true, secret, session };
}

/**
 * startSigningSession's checks, which write nothing: a hand-over (inperson/handover.ts) writes
 * the session in its own transaction, with the tablet's row.
 */
export async function startChecks(ctx: AppContext, input: StartSigning): Promise<StartChecked> {
	let item: ApplicationListItem | undefined;
	try {
		// Fresh from the service: a cached entry could miss a decision made a moment ago.
		item = await findApplication(ctx, input.officeId, input.applicationId, { fresh: true });
	} catch {
		return { ok: false, reason: 'unavailable', item: undefined };
	}
	if (!item) return { ok: false, reason: 'not_found', item };
	if (isDecided(item)) return { ok: false, reason: 'decided', item };
	const earlier = await earlierPass(
		ctx.db,
		input.officeId,
		input.applicationId,
		input.linkId,
		input.channel
	);
	if (earlier.kind === 'refused') {
		return {
			ok: false,
			reason: earlier.inPerson ? 'identity_in_person' : 'identity_elsewhere',
			item
		};
	}
	// Past identity already, the merchant may have been filling in the sign step on this link
	// when their session ended: nothing they typed there is lost (the SSN was never kept).
	const draft =
		earlier.kind === 'carries' && input.channel === 'link' && input.linkId
			? await draftLeftOn(ctx.db, input.linkId)
			: null;
	return { ok: true, item, draft };
}

/**
 * Writes a session and its audit events in the caller's transaction: Start (above, after its
 * checks) and a decline from the link page, which is taken even while the service cannot say
 * whose application this is (`item` null).
 */
export async function openSession(
	tx: Tx,
	input: StartSigning,
	item: ApplicationListItem | null,
	now = new Date(),
	draft: SignDraft | null = null
) {
	const created = await createSession(
		tx,
		{
			channel: input.channel,
			linkId: input.linkId,
			repId: input.repId,
			officeId: input.officeId,
			applicationId: input.applicationId,
			repNo: input.repNo ?? (item ? Number(item.RepNo) : null),
			businessName: item ? businessName(item) : `Application ${input.applicationId}`,
			ownerFirstName: item?.Ownr1_Legal_Name_First ?? '',
			ownerLastName: item?.Ownr1_Legal_Name_Last ?? '',
			ownerEmail: item?.Ownr1_Email ?? '',
			draft,
			...input.meta
		},
		now
	);
	const common = { ...sessionEvent(created.session, input.meta), at: now };
	const data = input.linkId
		? { linkId: input.linkId }
		: input.inPerson
			? { inPerson: { ...input.inPerson } }
			: {};
	if (input.linkId) await appendAudit(tx, { ...common, type: 'link.opened', data });
	await appendAudit(tx, { ...common, type: 'session.started', data });
	return created;
}
