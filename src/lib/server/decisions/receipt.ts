import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import type { AppContext } from '$lib/server/app';
import type { Tx } from '$lib/server/db';
import { signingLinks } from '$lib/server/db/schema';
import { officeTime } from '$lib/server/evidence/words';
import { mailMode } from '$lib/server/mail/mode';
import { enqueueMail, type OutgoingMail } from '$lib/server/mail/outbox';
import { renderEmail, type Block, type Rendered } from '$lib/server/mail/render';
import { contactBlock } from '$lib/server/mail/rep-contact';
import {
	merchantRepContact,
	orOffice,
	repContact,
	type RepContact
} from '$lib/server/reps/contact';
import { EmailSchema } from '$lib/server/reps/schemas';
import { greetingFor } from '$lib/server/signing/application';
import { capital } from '$lib/text';
import { toldOf } from '$lib/told';
import type { SigningSession } from '$lib/server/signing/session';
import { signerName, type DecisionInput } from './decisions';

/** What the merchant's receipt says: nothing secret (no SSN, no bank details, no answers). */
export interface ReceiptFacts {
	business: string;
	accepted: boolean;
	signer: string;
	at: Date;
	timeZone: string;
	/** The decision's id: the reference the copies print and /verify takes. */
	reference: string;
	/** The portal's address, for /verify/<reference>. */
	origin: string;
	rep: RepContact | null;
	/** Signed on the rep's tablet: the copies come from the rep, not from a page of the merchant's. */
	inPerson: boolean;
	/** How long the confirmation page, and its copies, stay open once the merchant leaves it. */
	copiesMinutes: number;
}

export function receiptEmail(f: ReceiptFacts): Rendered & { subject: string } {
	// An acceptance has two copies, a decision to decline one: said in the singular then.
	const copies = f.accepted
		? 'Your copies (the signed application and the certificate of completion)'
		: 'Your copy (the certificate of completion)';
	const them = f.accepted ? 'them' : 'it';
	const minutes = `${f.copiesMinutes} minute${f.copiesMinutes === 1 ? '' : 's'}`;
	const verifyUrl = `${f.origin}/verify/${f.reference}`;
	const blocks: Block[] = [
		{ kind: 'p', text: `Hello ${f.signer},` },
		{
			kind: 'p',
			text: `${f.accepted ? 'You accepted and signed' : 'You declined'} the merchant application for {strong} on ${officeTime(f.at, f.timeZone)}. This email is your receipt: please keep it.`,
			strong: f.business
		},
		{ kind: 'p', text: 'Decision reference: {strong}', strong: f.reference },
		{
			kind: 'p',
			text: f.inPerson
				? `${copies}: ask your sales representative, who can download ${them} from their console and pass ${them} on.`
				: `${copies}: ask your sales representative, who can download ${them} from their console and pass ${them} on at any time. On the device you signed on, the confirmation page offers ${them} too, until ${minutes} after you leave it.`
		},
		contactBlock(f.rep, 'If you have a question, contact your sales representative.'),
		{
			kind: 'small',
			text: 'Anyone can check that a copy is genuine, and what our records say of this decision, at',
			href: verifyUrl
		},
		{
			kind: 'small',
			text: `For your security, this email holds no Social Security Number and no bank details, and ${f.accepted ? 'your copies are' : 'your copy is'} not attached.`
		}
	];
	return {
		subject: f.accepted ? `Your signed application: ${f.business}` : `You declined: ${f.business}`,
		...renderEmail({
			title: f.accepted
				? 'You signed your merchant application'
				: 'You declined your merchant application',
			blocks
		})
	};
}

/**
 * The receipt of a decision about to be recorded, to the address the merchant typed on the sign
 * step, in the name of the rep their pages named (Reply-To): written by recordDecision in the
 * decision's own transaction, once its reference is known. Null while mail is off (production
 * without SMTP_URL): nothing pretends to be sent.
 */
export async function receiptFor(
	ctx: AppContext,
	session: SigningSession,
	input: Pick<DecisionInput, 'isAccepted' | 'firstName' | 'lastName' | 'email'>,
	origin: string
): Promise<((reference: string, at: Date) => OutgoingMail) | null> {
	if (mailMode(ctx.config) === 'off') return null;
	const rep = orOffice(ctx, await merchantRepContact(ctx, session.officeId, session.repNo));
	return (reference, at) => ({
		kind: 'receipt',
		officeId: session.officeId,
		applicationId: session.applicationId,
		to: input.email,
		replyTo: rep?.email ?? null,
		...receiptEmail({
			business: session.businessName,
			accepted: input.isAccepted,
			signer: signerName(input),
			at,
			timeZone: ctx.config.OFFICE_TIME_ZONE,
			reference,
			origin,
			rep,
			inPerson: session.channel === 'in_person',
			copiesMinutes: ctx.config.SESSION_IDLE_MINUTES
		})
	});
}

/** What the confirmation of a decline before identity says (see queueEarlyDeclineReceipt). */
export interface EarlyDeclineFacts {
	business: string;
	/** The owner, when the link went to the address the application gives for them. */
	greet: string | null;
	at: Date;
	timeZone: string;
	reasonGiven: boolean;
	rep: RepContact | null;
	/** On the rep's tablet: no link was used, and the rep was there. */
	inPerson?: boolean;
}

export function earlyDeclineEmail(f: EarlyDeclineFacts): Rendered & { subject: string } {
	// Who was told, as the done page says it (toldOf): with no rep or office on record, nobody.
	const told = toldOf(f.rep);
	const reason = f.reasonGiven ? ', with the reason you gave' : '';
	// Whom to ask again, or to tell: on a tablet the rep was there; a link came from whoever sent it.
	const ask = told ?? (f.inPerson ? 'your sales office' : 'the company that sent you the link');
	const blocks: Block[] = [
		{ kind: 'p', text: f.greet ? `Hello ${f.greet},` : 'Hello,' },
		{
			kind: 'p',
			text: `You declined the merchant application for {strong} on ${officeTime(f.at, f.timeZone)}, ${f.inPerson ? 'in person, on your sales representative’s device' : 'from the signing link sent to this address'}. This email confirms it: please keep it.`,
			strong: f.business
		},
		{
			kind: 'p',
			text: f.inPerson
				? `It is on record${reason}. You declined before the identity questions, so nothing went to the onboarding service. If you change your mind, ask ${ask} to sign with you again.`
				: `${told ? `${capital(told)} has been told${reason}` : `It is on record${reason}`}. You declined before the identity questions, so nothing went to the onboarding service, and the link no longer works. If you change your mind, ask ${ask} for a new link.`
		},
		contactBlock(f.rep, 'If you have a question, contact your sales representative.'),
		{
			kind: 'small',
			text: f.inPerson
				? `If you did not decline this application, tell ${ask} at once.`
				: `If you did not decline this application, tell ${ask} at once: someone else may have opened your link.`
		}
	];
	return {
		subject: `You declined: ${f.business}`,
		...renderEmail({ title: 'You declined your merchant application', blocks })
	};
}

/**
 * Where the confirmation of a decline before identity goes: the address the session's link was
 * emailed to, the one address the portal knows is the merchant's there (no sign step was reached
 * to type one); in person, the owner's address on the application, since the rep checked the
 * photo ID of whoever held the tablet. None for a link made without one (to copy, or by the
 * operator's systems), nor for an owner's address that is not one.
 */
export async function declineReceiptTo(
	db: Tx,
	session: Pick<SigningSession, 'channel' | 'linkId' | 'ownerEmail'>
): Promise<string | null> {
	if (session.channel === 'in_person') {
		const owner = session.ownerEmail.trim();
		return v.is(EmailSchema, owner) ? owner : null;
	}
	if (!session.linkId) return null;
	const [link] = await db
		.select({ email: signingLinks.email })
		.from(signingLinks)
		.where(eq(signingLinks.id, session.linkId));
	return link?.email ?? null;
}

/**
 * Queues the confirmation of a decline before identity (signing/decline.ts), in its transaction
 * `tx`, to the address the link was emailed to, or in person the owner's (declineReceiptTo).
 * Nothing when there is no such address or mail is off.
 */
export async function queueEarlyDeclineReceipt(
	ctx: AppContext,
	tx: Tx,
	session: SigningSession,
	reasonGiven: boolean,
	at: Date
): Promise<void> {
	if (mailMode(ctx.config) === 'off') return;
	const to = await declineReceiptTo(tx, session);
	if (!to) return;
	// Read in `tx`: on PGlite's one connection, a read through ctx.db (merchantRepContact's, on a
	// cache miss) would wait for the transaction it is called in.
	const rep = orOffice(ctx, await repContact(tx, session.officeId, session.repNo));
	const greet = greetingFor(
		{
			Ownr1_Legal_Name_First: session.ownerFirstName,
			Ownr1_Legal_Name_Last: session.ownerLastName,
			Ownr1_Email: session.ownerEmail
		},
		to
	);
	await enqueueMail(
		tx,
		ctx.encryptionKey,
		{
			kind: 'receipt',
			officeId: session.officeId,
			applicationId: session.applicationId,
			to,
			replyTo: rep?.email ?? null,
			...earlyDeclineEmail({
				business: session.businessName,
				greet,
				at,
				timeZone: ctx.config.OFFICE_TIME_ZONE,
				reasonGiven,
				rep,
				inPerson: session.channel === 'in_person'
			})
		},
		at
	);
}
