import { and, asc, eq, lte } from 'drizzle-orm';
import type { AppContext } from '$lib/server/app';
import { decisions } from '$lib/server/db/schema';
import { closeAbandonedTries } from '$lib/server/identity/attempts';
import { queueDueReminders } from '$lib/server/links/reminders';
import { Outage } from '$lib/server/log/outage';
import { deliverMailDue } from '$lib/server/mail/deliver';
import { pruneRateLimits } from '$lib/server/ratelimit/ratelimit';
import { deliverDecision } from './delivery';

/** Delivers every decision that is due; each is leased, so instances can run this side by side. */
export async function deliverDue(ctx: AppContext, now = new Date()): Promise<number> {
	const due = await ctx.db
		.select({ id: decisions.id })
		.from(decisions)
		.where(and(eq(decisions.status, 'pending'), lte(decisions.nextAttemptAt, now)))
		.orderBy(asc(decisions.nextAttemptAt))
		.limit(20);
	let delivered = 0;
	for (const { id } of due) {
		if ((await deliverDecision(ctx, id)) === 'delivered') delivered++;
	}
	return delivered;
}

/**
 * The background worker: decision delivery, abandoned identity tries, reminders, the mail outbox
 * and housekeeping, on a timer that never overlaps. Each part runs even when another fails, and
 * says so once per outage (Outage), not at every tick.
 */
export function startWorker(ctx: AppContext): () => void {
	let running = false;
	let lastPrune = 0;
	const steps: [string, () => Promise<unknown>][] = [
		['decisions', () => deliverDue(ctx)],
		['identity', () => closeAbandonedTries(ctx)],
		['reminders', () => queueDueReminders(ctx)],
		['mail', () => deliverMailDue(ctx)],
		[
			'housekeeping',
			async () => {
				if (Date.now() - lastPrune < 3_600_000) return;
				lastPrune = Date.now();
				await pruneRateLimits(ctx.db, new Date(Date.now() - 2 * 86_400_000));
			}
		]
	];
	const outages = new Map(steps.map(([name]) => [name, new Outage('worker', name)]));
	const tick = async () => {
		if (running) return;
		running = true;
		try {
			for (const [name, step] of steps) {
				try {
					await step();
					outages.get(name)!.worked();
				} catch (err) {
					outages.get(name)!.failed(err);
				}
			}
		} finally {
			running = false;
		}
	};
	const timer = setInterval(() => void tick(), ctx.config.DELIVERY_INTERVAL_SECONDS * 1000);
	timer.unref();
	return () => clearInterval(timer);
}
