import type { AuditInput } from '$lib/server/audit/audit';
import type { RequestMeta } from '$lib/server/http/meta';
import type { SigningSession } from './session';

/** Who, where and through which channel: the part every audit event of a session shares. */
export function sessionEvent(
	s: Pick<SigningSession, 'id' | 'officeId' | 'applicationId' | 'channel' | 'repId'>,
	meta: RequestMeta
): Omit<AuditInput, 'type'> {
	return {
		officeId: s.officeId,
		applicationId: s.applicationId,
		channel: s.channel,
		rep: s.repId,
		sessionId: s.id,
		ip: meta.ip,
		userAgent: meta.userAgent
	};
}
