import nodemailer from 'nodemailer';
import { desc } from 'drizzle-orm';
import type { Db } from '$lib/server/db';
import { mailMessages } from '$lib/server/db/schema';

export interface Mail {
	to: string;
	subject: string;
	text: string;
}

export interface MailSettings {
	smtpUrl: string | undefined;
	from: string;
}

/**
 * Sends by SMTP when configured. Without SMTP the message is kept in the database for the
 * development mailbox, so the whole loop works on a fresh machine. Over SMTP only the envelope is
 * kept: a signing link in a stored body would be a usable token at rest.
 */
export async function sendMail(db: Db, settings: MailSettings, mail: Mail): Promise<void> {
	if (settings.smtpUrl) {
		const transport = nodemailer.createTransport(settings.smtpUrl);
		await transport.sendMail({
			from: settings.from,
			to: mail.to,
			subject: mail.subject,
			text: mail.text
		});
		await db
			.insert(mailMessages)
			.values({ to: mail.to, subject: mail.subject, text: '', transport: 'smtp' });
		return;
	}
	await db.insert(mailMessages).values({ ...mail, transport: 'mailbox' });
}

export async function listMailbox(db: Db, limit = 50) {
	return db.select().from(mailMessages).orderBy(desc(mailMessages.createdAt)).limit(limit);
}
