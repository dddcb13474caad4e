import type { AppContext } from '$lib/server/app';
import { officeTime } from '$lib/server/evidence/words';
import { mailMode } from '$lib/server/mail/mode';
import type { OutgoingMail } from '$lib/server/mail/outbox';
import { renderEmail, type Block, type Rendered } from '$lib/server/mail/render';
import { contactBlock } from '$lib/server/mail/rep-contact';
import { merchantRepContact, orOffice, type RepContact } from '$lib/server/reps/contact';
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
