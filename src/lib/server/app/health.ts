import { decisionTrouble } from '$lib/server/decisions/decisions';
import { Outage } from '$lib/server/log/outage';
import { mailMode } from '$lib/server/mail/mode';
import { mailTrouble } from '$lib/server/mail/status';
import type { AppContext } from './context';

/** Probes come every few seconds: the database's trouble is logged once per outage. */
const database = new Outage('database', 'the health check');

/**
 * What `/healthz` answers: 200 while the database answers, with what waits on others (mail the
 * mail server has not taken or has refused for good, decisions the service has not taken or has
 * refused); 503 while the database does not, so a load balancer sends merchants to an instance
 * that works.
 */
export async function health(ctx: AppContext): Promise<{ status: 200 | 503; body: object }> {
	const about = {
		sandbox: ctx.config.sandbox,
		database: ctx.database.kind,
		mail: mailMode(ctx.config)
	};
	try {
		const [mail, decisions] = await Promise.all([mailTrouble(ctx.db), decisionTrouble(ctx.db)]);
		database.worked();
		return {
			status: 200,
			body: {
				ok: true,
				...about,
				mailRetrying: mail.retrying,
				mailFailed: mail.failed,
				decisionsRetrying: decisions.retrying,
				decisionsRefused: decisions.refused
			}
		};
	} catch (err) {
		database.failed(err);
		return { status: 503, body: { ok: false, ...about, problem: 'the database is not answering' } };
	}
}
