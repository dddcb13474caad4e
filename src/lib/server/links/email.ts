import { officeTime, renderEmail, type Block, type Rendered } from '$lib/server/mail/render';
import { contactBlock, type RepContact } from '$lib/server/mail/rep-contact';

export interface LinkEmailFacts {
	business: string;
	/** The signer the greeting names (signing/application.ts greetingFor); absent: "Hello,". */
	greet?: string | null;
	url: string;
	expiresAt: Date;
	rep?: RepContact | null;
	timeZone: string;
	/** Identity already passed, and carries over to this link: no questions this time. */
	identityDone?: boolean;
	/** An earlier link, which no longer works: one this replaced (a resend), or one emailed before. */
	replacesEarlier?: boolean;
	/** Too many tries have locked the identity questions until then (the link page says so too). */
	questionsLockedUntil?: Date | null;
}

const repBlock = (rep: RepContact | null | undefined): Block =>
	contactBlock(
		rep,
		'If you did not expect this message or have a question, contact your sales representative.'
	);

function body(f: LinkEmailFacts, opening: Block[], title: string): Rendered {
	return renderEmail({
		title,
		blocks: [
			{ kind: 'p', text: f.greet ? `Hello ${f.greet},` : 'Hello,' },
			...opening,
			{
				kind: 'p',
				text: f.identityDone
					? 'It takes a few minutes: read the agreement, and accept or decline. Your identity is already confirmed, so there are no questions this time.'
					: 'It takes about ten minutes: read the agreement, answer a few identity questions from the credit bureau, and accept or decline.'
			},
			{ kind: 'button', href: f.url, label: 'Review and sign' },
			{ kind: 'p', text: `This link works until ${officeTime(f.expiresAt, f.timeZone)}.` },
			repBlock(f.rep),
			{ kind: 'small', text: 'The link is for you alone; please do not forward this email.' },
			{
				kind: 'small',
				text: 'If the button does not work, copy this address into your browser:',
				href: f.url,
				htmlOnly: true
			}
		]
	});
}

export function linkEmail(f: LinkEmailFacts): Rendered & { subject: string } {
	return {
		subject: `Please review and sign: ${f.business}`,
		...body(
			f,
			[
				{
					kind: 'p',
					text: 'Your merchant application for {strong} is ready for your review and signature.',
					strong: f.business
				},
				// Locked: said before "about ten minutes", which cannot start until then.
				...(f.questionsLockedUntil
					? [
							{
								kind: 'p' as const,
								text: `For your security, after too many unsuccessful tries the credit bureau’s identity questions for this application are locked until ${officeTime(f.questionsLockedUntil, f.timeZone)}. ${
									f.questionsLockedUntil < f.expiresAt
										? 'Open the link after then to answer them and sign.'
										: 'This link expires before then: after that time, ask your sales representative for a new one.'
								}`
							}
						]
					: []),
				// A resend: two alike emails, and only the newer one's button works.
				...(f.replacesEarlier
					? [
							{
								kind: 'p' as const,
								text: 'If you received a signing link for this application before, it no longer works: please use this one.'
							}
						]
					: [])
			],
			'Your merchant application is ready to sign'
		)
	};
}

export function reminderEmail(f: LinkEmailFacts): Rendered & { subject: string } {
	return {
		subject: `Reminder: please review and sign: ${f.business}`,
		...body(
			f,
			[
				{
					kind: 'p',
					text: 'A reminder: your merchant application for {strong} is still waiting for your review and signature.',
					strong: f.business
				}
			],
			'Your merchant application is waiting for you'
		)
	};
}
