import type { AppContext } from '$lib/server/app';
import type { RepContact } from '$lib/server/mail/rep-contact';
import { createLink } from './links';
import { sendLinkMail } from './mail';

export interface MailedLinkInput {
	officeId?: number;
	applicationId: number;
	business?: string;
	greet?: string;
	rep?: RepContact;
	ttlHours?: number;
	now?: Date;
}

/** For tests: a fresh link for the application, mailed to its merchant as the operator API does. */
export async function mailLinkForTest(ctx: AppContext, input: MailedLinkInput) {
	const { officeId = 1207, applicationId, now = new Date() } = input;
	const made = await createLink(
		ctx.db,
		{
			officeId,
			applicationId,
			email: 'dana@blueheron.example',
			createdBy: 'test',
			ttlHours: input.ttlHours ?? 168,
			meta: { ip: '203.0.113.9', userAgent: 'vitest' }
		},
		now
	);
	const url = `https://sign.example.com/s/${made.token}`;
	const result = await sendLinkMail(
		ctx,
		{
			to: 'dana@blueheron.example',
			url,
			business: input.business ?? 'Blue Heron Bakery',
			greet: input.greet,
			expiresAt: made.link.expiresAt,
			officeId,
			applicationId,
			linkId: made.link.id,
			rep: input.rep
		},
		undefined,
		now
	);
	return { ...made, url, result };
}
