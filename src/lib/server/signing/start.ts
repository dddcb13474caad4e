import { appendAudit } from '$lib/server/audit/audit';
import type { Tx } from '$lib/server/db';
import type { RequestMeta } from '$lib/server/http/meta';
import type { SigningLink } from '$lib/server/links/links';
import type { ApplicationListItem } from '$lib/server/onboarding';
import { businessName } from './application';
import { sessionEvent } from './event';
import { createSession } from './session';

/**
 * Opens a signing session from an emailed link: the session and its two events, in the caller's
 * transaction. Start and a decline on the link page both begin here.
 */
export async function startFromLink(
	tx: Tx,
	link: SigningLink,
	item: ApplicationListItem | null,
	meta: RequestMeta
) {
	const created = await createSession(tx, {
		channel: 'link',
		linkId: link.id,
		repId: null,
		officeId: link.officeId,
		applicationId: link.applicationId,
		// A decline is taken even while the service cannot say whose application this is.
		businessName: item ? businessName(item) : `Application ${link.applicationId}`,
		ownerFirstName: item?.Ownr1_Legal_Name_First ?? '',
		ownerLastName: item?.Ownr1_Legal_Name_Last ?? '',
		ownerEmail: item?.Ownr1_Email ?? '',
		...meta
	});
	const common = sessionEvent(created.session, meta);
	await appendAudit(tx, { ...common, type: 'link.opened', data: { linkId: link.id } });
	await appendAudit(tx, { ...common, type: 'session.started', data: { linkId: link.id } });
	return created;
}
