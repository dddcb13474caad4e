import { and, asc, eq, isNotNull, lte, not, sql } from 'drizzle-orm';
import type { AppContext } from '$lib/server/app';
import type { Config } from '$lib/server/config/config';
import { decrypt } from '$lib/server/crypto/secretbox';
import { decisions, linkReminders, signingLinks } from '$lib/server/db/schema';
import { identityCarriesTo } from '$lib/server/identity/attempts';
import { enqueueMail } from '$lib/server/mail/outbox';
import { reminderEmail } from './email';

type ReminderSettings = Pick<
	Config,
	'REMINDER_FIRST_DAYS' | 'REMINDER_EVERY_DAYS' | 'REMINDER_MAX'
>;

const DAY_MS = 86_400_000;

/** A reminder goes out only while the link still works: never at or after its expiry. */
const beforeExpiry = (at: Date, expiresAt: Date) => (at < expiresAt ? at : null);

export function firstReminderAt(c: ReminderSettings, sentAt: Date, expiresAt: Date): Date | null {
	if (c.REMINDER_MAX < 1) return null;
	return beforeExpiry(new Date(sentAt.getTime() + c.REMINDER_FIRST_DAYS * DAY_MS), expiresAt);
}

/** After the `sent`-th reminder, planned for `plannedAt`: the next one, if any. */
export function nextReminderAt(
	c: ReminderSettings,
	plannedAt: Date,
	sent: number,
	expiresAt: Date
): Date | null {
	if (sent >= c.REMINDER_MAX) return null;
	return beforeExpiry(new Date(plannedAt.getTime() + c.REMINDER_EVERY_DAYS * DAY_MS), expiresAt);
}

/** The plan's link can still be signed: not used, revoked (or replaced) or expired, no decision. */
const linkUsable = (now: Date) => sql`(exists (
	select 1 from ${signingLinks}
	where ${signingLinks.id} = ${linkReminders.linkId}
		and ${signingLinks.revokedAt} is null
		and ${signingLinks.usedAt} is null
		and ${signingLinks.expiresAt} > ${now}
) and not exists (
	select 1 from ${decisions}
	where ${decisions.officeId} = ${linkReminders.officeId}
		and ${decisions.applicationId} = ${linkReminders.applicationId}
))`;

/**
 * Ends the plans of links that can no longer be signed, and with them the stored URL: a decision,
 * a revoke or a new link stops the reminders at once, not only when the next one falls due.
 */
export async function endSpentReminders(ctx: AppContext, now = new Date()): Promise<number> {
	const ended = await ctx.db
		.update(linkReminders)
		.set({ nextAt: null, urlEnc: null })
		.where(and(isNotNull(linkReminders.nextAt), not(linkUsable(now))))
		.returning({ linkId: linkReminders.linkId });
	return ended.length;
}

/**
 * Queues every reminder that is due. Each is taken by a conditional update (the count it read
 * must still be the count), so when instances race for the same reminder exactly one queues it.
 * Its `link.reminded` event is written when it goes out (mail/deliver.ts), not here.
 */
export async function queueDueReminders(ctx: AppContext, now = new Date()): Promise<number> {
	await endSpentReminders(ctx, now);
	const due = await ctx.db
		.select()
		.from(linkReminders)
		.where(and(isNotNull(linkReminders.nextAt), lte(linkReminders.nextAt, now)))
		.orderBy(asc(linkReminders.nextAt))
		.limit(20);
	let queued = 0;
	for (const plan of due) {
		if (!plan.urlEnc || !plan.nextAt) continue;
		const n = plan.sent + 1;
		const next = nextReminderAt(ctx.config, plan.nextAt, n, plan.expiresAt);
		const url = decrypt(ctx.encryptionKey, plan.urlEnc);
		const done = await ctx.db.transaction(async (tx) => {
			const [taken] = await tx
				.update(linkReminders)
				.set({ sent: n, nextAt: next, urlEnc: next ? plan.urlEnc : null })
				.where(
					and(
						eq(linkReminders.linkId, plan.linkId),
						eq(linkReminders.sent, plan.sent),
						lte(linkReminders.nextAt, now),
						linkUsable(now)
					)
				)
				.returning({ linkId: linkReminders.linkId });
			if (!taken) return false;
			const email = reminderEmail({
				business: plan.business,
				greet: plan.greet,
				url,
				expiresAt: plan.expiresAt,
				rep: plan.rep,
				timeZone: ctx.config.OFFICE_TIME_ZONE,
				identityDone: await identityCarriesTo(tx, plan)
			});
			await enqueueMail(
				tx,
				ctx.encryptionKey,
				{
					kind: 'reminder',
					officeId: plan.officeId,
					applicationId: plan.applicationId,
					linkId: plan.linkId,
					to: plan.to,
					replyTo: plan.rep?.email ?? null,
					...email
				},
				now
			);
			return true;
		});
		if (done) queued++;
	}
	return queued;
}
