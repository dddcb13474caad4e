import type { AppContext } from '$lib/server/app';
import type { AuditEvent } from '$lib/server/audit/audit';
import { decisionFor } from '$lib/server/decisions/decisions';
import type { RequestMeta } from '$lib/server/http/meta';
import { earlierPasses, newLinkCarries, type Pass } from '$lib/server/identity/attempts';
import { endLinks, issueLink } from '$lib/server/links/ending';
import { hasUsableLink, replacesEarlier, usableLink, type LinkHeld } from '$lib/server/links/links';
import { sendLinkMail } from '$lib/server/links/mail';
import { mailEnabled } from '$lib/server/mail/mode';
import { isDecided, type ApplicationListItem } from '$lib/server/onboarding';
import type { SignedInRep } from '$lib/server/reps/session';
import { businessName, greetingFor } from '$lib/server/signing/application';
import { openSessionOnLink } from '$lib/server/signing/session';

/** How the audit trail names a rep: readable, and specific enough to tell two Sams apart. */
export const repAuditName = (rep: Pick<SignedInRep, 'name' | 'repNo' | 'email'>) =>
	`${rep.name} (rep ${rep.repNo}, ${rep.email})`;

interface RepAction {
	rep: SignedInRep;
	/** Loaded for the rep's own office by the route's guard (reps/guard.ts). */
	application: ApplicationListItem;
	meta: RequestMeta;
}

const ids = (a: RepAction) => ({
	officeId: a.rep.officeId,
	applicationId: Number(a.application.ApplicationID)
});

/** How a link the merchant can no longer open ended, for the console's list of emails. */
export type LinkEnd =
	'replaced' | 'revoked' | 'in_person' | 'expired' | 'declined' | 'decided' | 'used';

/**
 * How a link no longer usable ended, as the trail has it (links.ts: replaced by a newer one,
 * revoked by a rep, ended by a hand-over, after it had expired or before; signing/decline.ts:
 * spent by a decline before identity); one the trail does not end was used, or outlived by a
 * decision, which ended every link at once.
 */
export function linkEnded(linkId: string, events: AuditEvent[], decided: boolean): LinkEnd {
	const revoked = events.find(
		(e) => e.type === 'link.revoked' && (e.data as { linkId?: unknown }).linkId === linkId
	);
	const data = revoked?.data as { reason?: unknown; expired?: unknown } | undefined;
	// Ended by a hand-over after it had run out: it had expired, as the timeline says.
	if (data?.expired === true) return 'expired';
	if (data?.reason === 'replaced' || data?.reason === 'in_person') return data.reason;
	if (revoked) return 'revoked';
	// Spent by a decline before identity, whatever was decided later on another link.
	const declined = events.some(
		(e) => e.type === 'decline.recorded' && (e.data as { linkId?: unknown }).linkId === linkId
	);
	if (declined) return 'declined';
	return decided ? 'decided' : 'used';
}

/** A decision is on record, here or at the service: a link could only lead to a refusal. */
async function decided(ctx: AppContext, a: RepAction): Promise<boolean> {
	const { officeId, applicationId } = ids(a);
	return isDecided(a.application) || !!(await decisionFor(ctx.db, officeId, applicationId));
}

/**
 * Where the merchant can still finish after a pass made on the link that is out: on that link,
 * which still works (`valid`), or in the session they opened on it before it expired (`open`);
 * false when on neither.
 */
export type FinishOnCurrent = 'valid' | 'open' | false;

/**
 * The identity passes a new link to `email` (null: a link to copy) could not carry over: the
 * merchant would meet "this link can't continue" at the identity step. Null when it would carry.
 * `onCurrent`: one of them was made on the link that is out, and the merchant can finish there.
 */
async function stranded(
	ctx: AppContext,
	a: RepAction,
	email: string | null
): Promise<{ passes: Pass[]; onCurrent: FinishOnCurrent } | null> {
	const { officeId, applicationId } = ids(a);
	const passes = await earlierPasses(ctx.db, officeId, applicationId);
	if (newLinkCarries(passes, email)) return null;
	const current = await usableLink(ctx.db, officeId, applicationId);
	if (!current || !passes.some((p) => p.linkId === current.id)) return { passes, onCurrent: false };
	if (current.expiresAt.getTime() > Date.now()) return { passes, onCurrent: 'valid' };
	// Expired: a session opened on it in time outlives it (signing/session.ts sessionIsOpen).
	const open = await openSessionOnLink(
		ctx.db,
		{ id: current.id, revokedAt: null },
		ctx.config.SESSION_IDLE_MINUTES
	);
	return { passes, onCurrent: open ? 'open' : false };
}

/**
 * Why a rep's new link was not made. `moved`: the application's link is no longer the one the
 * rep's page showed (see LinkGuard). `tablet`: a tablet is in the merchant's hands (TabletRule).
 */
export type LinkRefusal =
	| { reason: 'decided' | 'mail_off' | 'moved' | 'tablet' }
	| { reason: 'identity_elsewhere'; passes: Pass[]; onCurrent: FinishOnCurrent };

interface NewLink {
	/** The usable link the rep's page showed (its id; null: none). Absent: replace whatever is. */
	shown?: string | null;
}

async function newLink(ctx: AppContext, a: RepAction & NewLink, email: string | null) {
	const input = {
		...ids(a),
		email,
		createdBy: `rep:${a.rep.id}`,
		ttlHours: ctx.config.LINK_TTL_HOURS,
		meta: a.meta,
		rep: repAuditName(a.rep)
	};
	return a.shown === undefined
		? issueLink(ctx, input)
		: issueLink(ctx, { ...input, replaces: a.shown });
}

/** A rep's link is made under `replaces`, never `keep`: what is not `tablet` is `moved`. */
const heldFor = (reason: LinkHeld) => (reason === 'tablet' ? 'tablet' : 'moved');

/**
 * "Send link" (and resend): a new link, replacing the old one, emailed in the rep's name. With
 * mail off (production without SMTP) nothing is made: the rep copies a link instead.
 */
export async function sendLink(
	ctx: AppContext,
	a: RepAction & NewLink & { email: string; origin: string }
): Promise<{ ok: true; expiresAt: Date } | ({ ok: false } & LinkRefusal)> {
	if (!mailEnabled(ctx)) return { ok: false, reason: 'mail_off' };
	if (await decided(ctx, a)) return { ok: false, reason: 'decided' };
	const held = await stranded(ctx, a, a.email);
	if (held) return { ok: false, reason: 'identity_elsewhere', ...held };
	const made = await newLink(ctx, a, a.email);
	if (!made.ok) return { ok: false, reason: heldFor(made.reason) };
	const { token, link } = made;
	await sendLinkMail(ctx, {
		to: a.email,
		url: `${a.origin}/s/${token}`,
		business: businessName(a.application),
		greet: greetingFor(a.application, a.email),
		expiresAt: link.expiresAt,
		...ids(a),
		linkId: link.id,
		rep: { name: a.rep.name, email: a.rep.email, phone: a.rep.phone },
		replacesEarlier: await replacesEarlier(ctx.db, made)
	});
	return { ok: true, expiresAt: link.expiresAt };
}

/**
 * "Copy link": only a token's hash is stored, so an existing link cannot be shown again. This
 * makes a new one (replacing the old) and returns its address, to be shown once.
 */
export async function copyableLink(
	ctx: AppContext,
	a: RepAction & NewLink & { origin: string }
): Promise<{ ok: true; url: string; expiresAt: Date } | ({ ok: false } & LinkRefusal)> {
	if (await decided(ctx, a)) return { ok: false, reason: 'decided' };
	const held = await stranded(ctx, a, null);
	if (held) return { ok: false, reason: 'identity_elsewhere', ...held };
	const made = await newLink(ctx, a, null);
	if (!made.ok) return { ok: false, reason: heldFor(made.reason) };
	const { token, link } = made;
	return { ok: true, url: `${a.origin}/s/${token}`, expiresAt: link.expiresAt };
}

/**
 * A rep's "Revoke". With the link the page showed (`shown`: its id, or null for none), only that
 * one, if it is still usable: a link made since (in another tab, by a colleague) is not ended
 * unseen, and the answer is `moved`. Without it (a page from before the field), whatever link
 * there is. `none`: no usable link was there to end.
 */
export async function revokeLink(
	ctx: AppContext,
	a: RepAction & { shown?: string | null }
): Promise<'revoked' | 'none' | 'moved'> {
	const { officeId, applicationId } = ids(a);
	const ended =
		a.shown === null
			? []
			: await endLinks(ctx, {
					officeId,
					applicationId,
					rep: repAuditName(a.rep),
					by: `rep:${a.rep.id}`,
					meta: a.meta,
					...(a.shown === undefined ? {} : { only: a.shown })
				});
	if (ended.length > 0) return 'revoked';
	if (a.shown === undefined) return 'none';
	return (await hasUsableLink(ctx.db, officeId, applicationId)) ? 'moved' : 'none';
}
