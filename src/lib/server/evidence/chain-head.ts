import { and, desc, eq, sql, type SQLWrapper } from 'drizzle-orm';
import type { Tx } from '$lib/server/db';
import { preparedPer } from '$lib/server/db/prepared';
import { auditEvents } from '$lib/server/db/schema';

/**
 * An application's audit chain as it stands, in one value: its last event's `seq:hash`, or null
 * while it has none. The certificate and the signed copy are kept under it (documents.ts), so
 * anything appended makes them afresh.
 */
const head = sql<string>`${auditEvents.seq} || ':' || ${auditEvents.hash}`;

/**
 * The chain's head as a subquery, so that a statement that reads something else reads it too:
 * the done step's two PDFs read it with the signing session (signing/session.ts), one statement
 * per download where there were two.
 */
export function chainHeadOf(officeId: SQLWrapper, applicationId: SQLWrapper) {
	return sql<
		string | null
	>`(select ${head} from ${auditEvents} where ${auditEvents.officeId} = ${officeId} and ${auditEvents.applicationId} = ${applicationId} order by ${auditEvents.seq} desc limit 1)`;
}

/** The chain's head on its own: every other download of either PDF (see preparedPer). */
const chainHeadQuery = preparedPer((db) =>
	db
		.select({ head })
		.from(auditEvents)
		.where(
			and(
				eq(auditEvents.officeId, sql.placeholder('officeId')),
				eq(auditEvents.applicationId, sql.placeholder('applicationId'))
			)
		)
		.orderBy(desc(auditEvents.seq))
		.limit(1)
		.prepare('audit_chain_head')
);

export async function chainHead(
	db: Tx,
	officeId: number,
	applicationId: number
): Promise<string | null> {
	const [row] = await chainHeadQuery(db).execute({ officeId, applicationId });
	return row?.head ?? null;
}
