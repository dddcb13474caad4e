import type { ConsoleState, StateKind, Step } from './state';
import { deliveryProblem } from '$lib/server/onboarding/errors';
import { formatTime } from '$lib/time';
import { officeTime } from './time';

export const STATE_LABELS: Record<StateKind, string> = {
	not_sent: 'Not sent',
	link_sent: 'Link sent',
	opened: 'Opened',
	in_progress: 'In progress',
	identity_passed: 'Identity passed',
	identity_locked: 'Identity locked',
	signed: 'Signed',
	declined: 'Declined',
	delivering: 'Decision being delivered',
	delivery_failed: 'Delivery failed',
	link_expired: 'Link expired'
};

/**
 * The state filter's options: the badges' words, but one option holds every badge of its kind.
 * "Opened" also holds an in-person signing the rep took back, whose badge reads "Paused in person";
 * "Link sent" a link made and not emailed (to copy, by the operator API, a demo): "Link made".
 */
export const FILTER_LABELS: Record<StateKind, string> = {
	...STATE_LABELS,
	link_sent: 'Link sent or made',
	opened: 'Opened or paused'
};

const STEP_NAMES: Record<Step, string> = {
	terms: 'reading the agreement',
	identity: 'identity step',
	sign: 'signing'
};

/**
 * Where a merchant is now, in a few words: "identity questions" only while questions are on their
 * screen; before (or with the credit bureau not answering, when none were shown) the step.
 */
const stepName = (s: ConsoleState) =>
	s.step === 'identity' && s.questionsUntil ? 'identity questions' : STEP_NAMES[s.step ?? 'terms'];

/**
 * Where a merchant stopped, as a place: "at the identity step" holds whether or not its questions
 * were ever shown ("at identity questions" read as if they had been).
 */
const STEP_PLACES: Record<Step, string> = {
	terms: 'the agreement',
	identity: 'the identity step',
	sign: 'the signing step'
};

/** The state in a few words: "In progress: identity questions". */
export function stateLabel(s: ConsoleState): string {
	const where = s.inPerson ? ' in person' : '';
	if (s.kind === 'in_progress' && s.step) return `In progress${where}: ${stepName(s)}`;
	if (s.kind === 'opened' && s.inPerson) return 'Paused in person';
	if (s.kind === 'link_sent') {
		// Made to copy, by the operator API or as a demo: nobody sent it (the detail says how).
		if (!s.link?.email) return 'Link made';
		const mail = s.link.mail;
		if (mail?.status === 'failed') return 'Link email failed';
		if (mail?.status === 'pending' && mail.problem) return 'Link email delayed';
	}
	return STATE_LABELS[s.kind];
}

/**
 * One sentence more, with times in the office's zone. A page that shows a decline's reason under
 * its own heading leaves it out here (`reason: false`); the list shows its first `reasonLength`
 * characters (a reason may run to 1,000), and the application's page all of it.
 */
/**
 * A decision made under names other than the owner's, whom the identity questions were about:
 * said with the decision wherever it shows, as the timeline and the certificate say it.
 */
function otherSigner(s: ConsoleState): string {
	if (!s.otherSigner) return '';
	const { signer, owner } = s.otherSigner;
	return ` ${s.accepted ? 'Signed' : 'Declined'} by ${signer}, not the owner the application names (${owner}).`;
}

/**
 * A tablet taken back (or left idle) at the identity step: questions on it run on, and a try that
 * ends without a pass counts, which "paused" alone does not say; once one has, what is left.
 */
function identityOnTablet(s: ConsoleState, zone: string): string {
	if (s.triesLeft) return triesLeft(s);
	if (!s.questionsUntil) return '';
	const until = formatTime(s.questionsUntil, zone, 'short', { seconds: true });
	return ` Its identity questions are still open and their time runs on: unless the merchant answers them by ${until}, that try counts without a pass.`;
}

/** Once a try at the identity questions has ended without a pass: how many are left. */
function triesLeft(s: ConsoleState): string {
	if (!s.triesLeft) return '';
	const { left, max } = s.triesLeft;
	const more = left === 1 ? ' One more that ends without a pass locks the questions.' : '';
	return ` A try at the identity questions ended without a pass: ${left} of ${max} tries ${left === 1 ? 'is' : 'are'} left.${more}`;
}

export function stateDetail(
	s: ConsoleState,
	zone: string,
	opts: { reason?: boolean; reasonLength?: number } = {}
): string {
	const t = (d: Date | null) => (d ? officeTime(d, zone) : '');
	const chars = s.reason ? [...s.reason] : [];
	const cut = opts.reasonLength !== undefined && chars.length > opts.reasonLength;
	const reason = cut ? `${chars.slice(0, opts.reasonLength).join('').trimEnd()}…` : s.reason;
	const what = s.accepted ? 'signature' : 'decline';
	switch (s.kind) {
		case 'not_sent':
			return s.at ? `The last link was revoked ${t(s.at)}.` : 'No signing link yet.';
		case 'link_sent':
			return s.link?.email
				? emailed(s, s.link.email, t)
				: s.link?.demo
					? `A demo link, not emailed; valid until ${t(s.until)}.`
					: s.link?.viaApi
						? `A link made through the operator API, not emailed; valid until ${t(s.until)}.`
						: `A link to copy and hand over; valid until ${t(s.until)}.`;
		case 'opened':
			if (s.inPerson && s.tabletIdle) {
				return `The tablet was left idle at ${STEP_PLACES[s.step ?? 'terms']} and locked itself; last seen ${t(s.at)}. Hand it over again to go on.${identityOnTablet(s, zone)}`;
			}
			if (s.inPerson) {
				return `Taken back from the merchant at ${STEP_PLACES[s.step ?? 'terms']}; last seen ${t(s.at)}. Hand the tablet over again to go on.${identityOnTablet(s, zone)}`;
			}
			return `Started, then stopped at ${STEP_PLACES[s.step ?? 'terms']}; last seen ${t(s.at)}.${triesLeft(s)}`;
		case 'in_progress':
			if (s.inPerson)
				return `The merchant has the tablet now (last seen ${t(s.at)}).${triesLeft(s)}`;
			if (s.quiet) {
				return `Last seen ${t(s.at)} (${stepName(s)}): the merchant may have stepped away, and can go on from there while the session stays open.${triesLeft(s)}`;
			}
			return `The merchant is on it now (last seen ${t(s.at)}).${triesLeft(s)}`;
		case 'identity_passed':
			return `Identity confirmed ${t(s.at)}; not signed yet.`;
		case 'identity_locked':
			return `Too many failed tries: the questions are locked until ${t(s.until)}.`;
		case 'signed':
			return s.at
				? `Accepted and signed ${t(s.at)}.${otherSigner(s)}`
				: 'Recorded by the onboarding service.';
		case 'declined': {
			const when = s.at ? ` ${t(s.at)}` : '';
			const apart = opts.reason === false;
			// Before identity the portal keeps the decline: the service has no decision to show.
			if (!s.decided) {
				const why = apart
					? ''
					: reason
						? // A reason that ends its own sentence gets no second full stop.
							` Reason: “${reason}”${/[.!?…]$/.test(reason) ? '' : '.'}`
						: ' No reason given.';
				// Tries used before the decline still lock the questions: a new start would stop there.
				const again = s.until
					? ` A new link or an in-person signing opens it again, but the identity questions are locked until ${t(s.until)} after too many failed tries: the merchant can answer them only after then.`
					: ' A new link or an in-person signing opens it again.';
				return `Declined${when}, before identity was confirmed: nothing went to the onboarding service.${why}${again}`;
			}
			if (apart) return `Declined${when}.${otherSigner(s)}`;
			return reason
				? `Declined${when}.${otherSigner(s)} Reason: “${reason}”`
				: `Declined${when}; no reason given.${otherSigner(s)}`;
		}
		case 'delivering':
			return reason
				? `The ${what} is recorded; sending it failed (${deliveryProblem(reason)}), next try ${t(s.until)}.${otherSigner(s)}`
				: `The ${what} is recorded (${t(s.at)}) and on its way to the onboarding service.${otherSigner(s)}`;
		case 'delivery_failed':
			return `The ${what} was not delivered${reason ? `: ${deliveryProblem(reason)}` : ''}. The portal will not try again; it and its evidence are kept here. Contact the onboarding service to have it recorded.${otherSigner(s)}`;
		case 'link_expired':
			return `The link expired ${t(s.at)}. Send a new one.`;
	}
}

/**
 * Where the link's email stands, said only as far as the outbox knows it: "Emailed" once it has
 * gone out, not when it was queued.
 */
function emailed(s: ConsoleState, to: string, t: (d: Date | null) => string): string {
	const mail = s.link?.mail;
	const valid = `valid until ${t(s.until)}`;
	switch (mail?.status) {
		case 'sent':
			return `Emailed to ${to} ${t(mail.sentAt)}; ${valid}.`;
		case 'pending':
			return mail.problem
				? `The email to ${to} has not gone out yet (${mail.problem}); next try ${t(mail.nextAt)}. The link is ${valid}.`
				: `The email to ${to} is waiting to go out; the link is ${valid}.`;
		case 'failed':
			return `The email to ${to} could not be sent${mail.problem ? ` (${mail.problem})` : ''}.`;
		default:
			return `For ${to}; ${valid}.`;
	}
}

/**
 * Where identity passed, as a sentence's end: on a link to an address, on a link that went to
 * none (copied, or made without one), or in person (no link).
 */
export const passedWhere = (p: { linkId: string | null; email: string | null }) =>
	p.email
		? `on the link sent to ${p.email}`
		: p.linkId === null
			? 'in person'
			: 'on a link that was not emailed';

/**
 * What needs the rep: a link email that could not be sent, the known dead end, or a passed
 * identity waiting for a new link.
 */
export function attention(s: ConsoleState, zone: string): string | null {
	if (s.kind === 'link_sent' && s.link?.email && s.link.mail?.status === 'failed') {
		return `The merchant has no link: its email to ${s.link.email} could not be sent. Check the address with the merchant, then email a new link, or make a link to copy and hand it over.`;
	}
	if (s.decided || !s.identityPassed) return null;
	const passedOn = s.identityPassed.email;
	// Confirmed in person (no link), on a copied link (no address), or on a link to an address.
	const inPerson = s.identityPassed.linkId === null;
	// Confirmed before on an emailed link: a new link to that address carries that pass over.
	const earlier = s.identityPassed.carriesTo;
	const forward = passedOn
		? `Send a new link to ${passedOn}: a link to that address carries the confirmed identity over.`
		: inPerson
			? `Hand the tablet over again: ${s.inPerson ? 'the merchant picks up where they left off, without the questions' : 'after agreeing to the terms again, the merchant skips the questions and goes on to signing'}.${earlier ? ` Or send a new link to ${earlier}, where identity was confirmed before: a link to that address carries it over.` : ''}`
			: earlier
				? `Send a new link to ${earlier}, where identity was confirmed before: a link to that address carries it over.`
				: 'No new link can carry it over: finish this application with the merchant in person.';
	// Said alone (no dead end to explain first), it names where identity was confirmed.
	const alone = passedOn
		? forward
		: inPerson
			? `Identity was confirmed in person, with you. ${forward}`
			: `Identity was confirmed on a link that was not emailed (copied, or made without an address). ${forward}`;
	if (s.deadEnd) {
		const current = s.link
			? s.link.email
				? `The current link (to ${s.link.email}) can’t carry it over`
				: `The current link (${s.link.demo ? 'a demo link' : s.link.viaApi ? 'made through the operator API' : 'copied'}, not emailed) can’t carry it over`
			: 'No link can carry it over';
		const turned = s.deadEnd.refusedAt
			? ` — the merchant was turned away ${officeTime(s.deadEnd.refusedAt, zone)}`
			: ', so the merchant will be sent to you';
		return `Identity was confirmed ${passedWhere(s.identityPassed)}. ${current}${turned}. ${forward}`;
	}
	if (s.kind === 'identity_passed' && !s.link) return alone;
	return null;
}
