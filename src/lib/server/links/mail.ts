import type { AppContext } from '$lib/server/app';
import { appendAudit } from '$lib/server/audit/audit';
import { sendMail } from '$lib/server/mail/mail';

export interface LinkMail {
	to: string;
	url: string;
	business: string;
	expiresAt: Date;
	officeId: number;
	applicationId: number;
}

export async function sendLinkMail(ctx: AppContext, m: LinkMail): Promise<void> {
	const until = m.expiresAt.toUTCString();
	await sendMail(
		ctx.db,
		{ smtpUrl: ctx.config.SMTP_URL, from: ctx.config.MAIL_FROM },
		{
			to: m.to,
			subject: `Please review and sign: ${m.business}`,
			text: [
				`Hello,`,
				``,
				`Your merchant application for ${m.business} is ready for your review and signature.`,
				`Open this link to read the agreement, confirm your identity and sign:`,
				``,
				m.url,
				``,
				`The link works until ${until}. It takes about three minutes.`,
				`If you did not expect this message, contact your sales representative.`
			].join('\n')
		}
	);
	await appendAudit(ctx.db, {
		officeId: m.officeId,
		applicationId: m.applicationId,
		type: 'link.sent',
		channel: 'link',
		data: { to: m.to }
	});
}
