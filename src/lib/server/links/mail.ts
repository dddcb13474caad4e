import type { AppContext } from '$lib/server/app';
import { encrypt } from '$lib/server/crypto/secretbox';
import { identityCarriesTo, questionsLockedUntil } from '$lib/server/identity/attempts';
import type { Tx } from '$lib/server/db';
import { linkReminders } from '$lib/server/db/schema';
import { mailMode } from '$lib/server/mail/mode';
import { enqueueMail } from '$lib/server/mail/outbox';
import type { RepContact } from '$lib/server/mail/rep-contact';
import { linkEmail } from './email';
import { firstReminderAt } from './reminders';

export interface LinkMail {
	to: string;
	url: string;
	business: string;
	/** Named in the greeting (signing/application.ts greetingFor), and in its reminders'. */
	greet?: string | null;
	expiresAt: Date;
	officeId: number;
	applicationId: number;
	/** The link the email carries: a reminder plan follows it, and stops when it is spent. */
	linkId: string;
	/** Named in the email, and its Reply-To, when known. */
	rep?: RepContact;
	/** The link replaced an earlier one: the email says the earlier one no longer works. */
	replacesEarlier?: boolean;
}

/** `off`: mail is off (production without SMTP_URL): nothing was queued, hand the link over by hand. */
export type LinkMailResult = 'queued' | 'off';

/**
 * Queues the link email and plans its reminders, in one transaction (the caller's, when given).
 * The worker sends it, and only then puts `link.sent` on the trail (mail/deliver.ts): the trail,
 * the console and the certificate say "emailed" once the mail server has taken it.
 */
export async function sendLinkMail(
	ctx: AppContext,
	m: LinkMail,
	tx?: Tx,
	now = new Date()
): Promise<LinkMailResult> {
	if (mailMode(ctx.config) === 'off') return 'off';
	const db = tx ?? ctx.db;
	const identityDone = await identityCarriesTo(db, m);
	const email = linkEmail({
		business: m.business,
		greet: m.greet,
		url: m.url,
		expiresAt: m.expiresAt,
		rep: m.rep,
		timeZone: ctx.config.OFFICE_TIME_ZONE,
		identityDone,
		questionsLockedUntil: identityDone ? null : await questionsLockedUntil(ctx, db, m, now),
		replacesEarlier: m.replacesEarlier
	});
	const write = async (t: Tx) => {
		await enqueueMail(
			t,
			ctx.encryptionKey,
			{
				kind: 'link',
				officeId: m.officeId,
				applicationId: m.applicationId,
				linkId: m.linkId,
				to: m.to,
				replyTo: m.rep?.email ?? null,
				...email
			},
			now
		);
		const first = firstReminderAt(ctx.config, now, m.expiresAt);
		if (first) {
			// The reminder needs the link again, and only its hash is stored: the URL is kept
			// encrypted for as long as a reminder may still go out (see reminders.ts).
			await t
				.insert(linkReminders)
				.values({
					linkId: m.linkId,
					officeId: m.officeId,
					applicationId: m.applicationId,
					to: m.to,
					business: m.business,
					greet: m.greet ?? null,
					rep: m.rep ?? null,
					urlEnc: encrypt(ctx.encryptionKey, m.url),
					expiresAt: m.expiresAt,
					nextAt: first,
					createdAt: now
				})
				// The same link mailed again keeps the plan it already has.
				.onConflictDoNothing();
		}
	};
	if (tx) await write(tx);
	else await ctx.db.transaction(write);
	return 'queued';
}
