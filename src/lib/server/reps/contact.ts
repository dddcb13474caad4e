import { eq } from 'drizzle-orm';
import type { AppContext } from '$lib/server/app';
import type { Config } from '$lib/server/config/config';
import type { Tx } from '$lib/server/db';
import { reps } from '$lib/server/db/schema';
import { findApplication } from '$lib/server/signing/application';
import type { EndedSession } from '$lib/server/signing/session';
import { activeRep } from './accounts';

/** How the merchant's pages name their rep: "Your sales representative: Sam Ortiz, …". */
export interface RepContact {
	name: string;
	email: string;
	phone: string | null;
	/** The office's own contact (OFFICE_CONTACT_*), named where no rep account is found. */
	office?: true;
}

/** The office contact the operator set, or null when none is (the pages then say it generally). */
export function officeContact(config: Config): RepContact | null {
	const { OFFICE_CONTACT_NAME: name, OFFICE_CONTACT_EMAIL: email } = config;
	if (!name || !email) return null;
	return { name, email, phone: config.OFFICE_CONTACT_PHONE ?? null, office: true };
}

/**
 * Whom a merchant's page or email names: the rep found, else the office contact. Applied last,
 * after every way to find a rep (sender, whoever ended the link, the application's rep).
 */
export function orOffice(ctx: AppContext, rep: RepContact | null | undefined): RepContact | null {
	return rep ?? officeContact(ctx.config);
}

/** The active account behind an application's `RepNo`, or null (pages then say it generically). */
export async function repContact(
	db: Tx,
	officeId: number,
	repNo: number | null | undefined
): Promise<RepContact | null> {
	if (repNo == null) return null;
	const rep = await activeRep(db, officeId, repNo);
	return rep ? { name: rep.name, email: rep.email, phone: rep.phone } : null;
}

/**
 * The rep as the merchant's pages name them on every view: kept with the instance's upstream
 * reference data (ONBOARDING_CACHE_SECONDS), so a page view does not read the rep's account each
 * time. A rep's contact changes rarely; a disabled rep may still be named until the copy ages.
 * The rep's own pages and the operator API read the account itself (`repContact`).
 */
export async function merchantRepContact(
	ctx: AppContext,
	officeId: number,
	repNo: number | null | undefined
): Promise<RepContact | null> {
	if (repNo == null) return null;
	const { value } = await ctx.upstreamCache.get(`rep:${officeId}:${repNo}`, async () => ({
		contact: await repContact(ctx.db, officeId, repNo)
	}));
	return value.contact;
}

/**
 * The number of the rep who sent a link from the console (`createdBy` "rep:<id>"), or null for a
 * link the operator API made. The email went out in that rep's name, and its replies go to them:
 * the merchant's pages name the same rep, rather than the application's own when a colleague
 * sent it. Kept like the contact (a rep's number does not change).
 */
export async function senderRepNo(
	ctx: AppContext,
	link: { officeId: number; createdBy: string }
): Promise<number | null> {
	const id = /^rep:(.+)$/.exec(link.createdBy)?.[1];
	if (!id) return null;
	const { value } = await ctx.upstreamCache.get(`rep-id:${id}`, async () => {
		const [row] = await ctx.db
			.select({ officeId: reps.officeId, repNo: reps.repNo })
			.from(reps)
			.where(eq(reps.id, id));
		return { row: row ?? null };
	});
	return value.row?.officeId === link.officeId ? value.row.repNo : null;
}

/** The active account of the rep who sent the link, or null (see senderRepNo). */
export async function senderContact(
	ctx: AppContext,
	link: { officeId: number; createdBy: string }
): Promise<RepContact | null> {
	const repNo = await senderRepNo(ctx, link);
	return repNo === null ? null : merchantRepContact(ctx, link.officeId, repNo);
}

/**
 * The rep who ended a link (see howRevoked's `by`: `rep:<id>`, or the operator API's name), if
 * an active account of the office; null otherwise, and never fails.
 */
export async function endedBy(
	ctx: AppContext,
	officeId: number,
	by: string | null | undefined
): Promise<RepContact | null> {
	if (!by) return null;
	try {
		return await senderContact(ctx, { officeId, createdBy: by });
	} catch {
		return null;
	}
}

/**
 * The rep a link's pages name where the application is known only by its ids (a link's error
 * page; a note to the rep, with no `createdBy`): who sent the link, else the application's rep,
 * whose `RepNo` the service's list gives. Never fails: a page that cannot name the rep still
 * names the way forward.
 */
export async function repContactOf(
	ctx: AppContext,
	link: { officeId: number; applicationId: number; createdBy?: string }
): Promise<RepContact | null> {
	try {
		const sent = link.createdBy
			? await senderContact(ctx, { officeId: link.officeId, createdBy: link.createdBy })
			: null;
		if (sent) return sent;
		const item = await findApplication(ctx, link.officeId, link.applicationId);
		return item ? await merchantRepContact(ctx, link.officeId, Number(item.RepNo)) : null;
	} catch {
		return null;
	}
}

/**
 * Whom a signing session's pages name: its rep, else the office contact. Not on a rep's tablet:
 * the merchant hands it back to the rep beside them (RepContact's words) rather than write to the
 * office.
 */
export async function sessionRep(
	ctx: AppContext,
	s: { officeId: number; repNo: number | null; channel: string }
): Promise<RepContact | null> {
	const rep = await merchantRepContact(ctx, s.officeId, s.repNo);
	return s.channel === 'in_person' ? rep : orOffice(ctx, rep);
}

/**
 * An ended session's pages name whoever ended its link (such as the rep who took the signing in
 * person), else the session's rep: the error page says whom to ask.
 */
export async function endedSessionRep(
	ctx: AppContext,
	ended: EndedSession | undefined
): Promise<RepContact | null> {
	if (!ended) return null;
	return (await endedBy(ctx, ended.officeId, ended.revoked?.by)) ?? sessionRep(ctx, ended);
}
