import { error, redirect, type RequestEvent } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { plural } from '$lib/server/audit/labels';
import {
	currentStep,
	MAX_SESSION_MS,
	STEP_PATHS,
	type EndedSession,
	type SigningSession,
	type Step
} from './session';

/**
 * Every load and every action of a step calls this. A request for any other step than the
 * session's current one goes to the current one: no step is reached early, by URL or by a
 * replayed post, and a finished session cannot post again.
 */
export function requireStep(event: RequestEvent, step: Step): SigningSession {
	const session = event.locals.signing;
	if (!session) {
		const ended = event.locals.signingEnded;
		// Sent here by Start a moment ago, with no cookie back: cookies are off in this browser, and
		// opening the link again (the message below) would only go round once more.
		if (!ended && step === 'terms' && event.url.searchParams.has(STARTED)) {
			error(401, { message: COOKIE_NOT_KEPT, title: 'No signing is open in this browser' });
		}
		// A page left behind by identity passing, or the done page once it closed: the merchant
		// did nothing wrong, say so first.
		const finished = closedAfter(ended);
		const title =
			ended?.end === 'replaced'
				? 'Your identity is confirmed'
				: finished === 'decided'
					? 'Your decision is recorded'
					: finished === 'declined'
						? 'Your decline is recorded'
						: undefined;
		error(401, { message: endedMessage(ended, step), title });
	}
	const at = currentStep(session);
	if (at !== step) redirect(303, STEP_PATHS[at]);
	return session;
}

/** Where Start sends the merchant: the first step, marked as reached from Start. */
const STARTED = 'started';
export const JUST_STARTED = `${STEP_PATHS.terms}?${STARTED}`;

/** Said on the first step reached from Start with no session: cookies off (or the tab kept, the
 * browser's cookies gone since). */
const COOKIE_NOT_KEPT =
	'If you have just pressed Start, this browser didn’t keep the cookie that holds your place in the signing. Allow cookies for this site in the browser’s settings, then open your signing link again.';

/**
 * Why a signing page can't be used, in the merchant's words: a session that ended says how (its
 * rep's contact is the layout's), a browser with none says what to open.
 */
export function endedMessage(ended: EndedSession | undefined, step?: Step): string {
	// The done page, closed since (idle, say): what was recorded stands, and nothing is to be done
	// again; not "open the link again", whose page now says only that it is used up.
	const finished = closedAfter(ended);
	if (finished === 'decided') {
		return `This confirmation page has closed: it closes ${plural(app().config.SESSION_IDLE_MINUTES, 'minute')} after you leave it, to keep your information safe. Your sales representative can send you copies of the documents.`;
	}
	if (finished === 'declined') {
		return 'This page has closed, and nothing more is needed from you. If you change your mind, ask your sales representative for a new link.';
	}
	switch (ended?.end) {
		case 'link_revoked':
			// Decided or declined since (on another link, or in person): nothing is left to go on
			// with, whatever ended this session.
			if (ended.revoked?.decided) {
				return 'This session has ended, and a decision on this application is already on record. Your sales representative can tell you where things stand, and send you copies of the documents.';
			}
			if (ended.revoked?.declined) {
				return 'This session has ended, and the application has been declined since. If you have changed your mind, ask your sales representative for a new link.';
			}
			if (ended.revoked?.inPerson && ended.revoked.how === 'replaced') {
				return 'This session ended when your sales representative began signing this application with you in person. They have since sent you a newer signing link: open the link in the most recent email you received to go on.';
			}
			if (ended.revoked?.inPerson && ended.revoked.how === 'replaced_unsent') {
				return 'This session ended when your sales representative began signing this application with you in person. They have since made a newer signing link, which wasn’t emailed: ask them for it if you don’t have it.';
			}
			if (ended.revoked?.how === 'replaced') {
				return 'Your sales representative sent you a newer signing link, which ended this session. Open the link in the most recent email you received to go on.';
			}
			if (ended.revoked?.how === 'replaced_closed') {
				return 'Your sales representative made a newer signing link, which ended this session, and that one no longer opens either. Ask them for a new link if you still want to sign.';
			}
			if (ended.revoked?.how === 'replaced_unsent') {
				return 'Your sales representative made a newer signing link, which ended this session. It wasn’t emailed: they pass it on another way, so ask them for it if you don’t have it.';
			}
			if (ended.revoked?.how === 'in_person') {
				return 'This session ended when your sales representative began signing this application with you in person. If that signing wasn’t finished, ask them how to go on.';
			}
			return 'Your sales representative withdrew the link this session was opened with, so it has ended. Ask them for a new link if you still want to sign.';
		case 'idle': {
			const minutes = app().config.SESSION_IDLE_MINUTES;
			return `Your signing session ended after ${plural(minutes, 'minute')} without activity, to keep your information safe. ${openAgain(ended)} to go on.${keptNote(ended)}`;
		}
		case 'replaced':
			// Sent by a page that still held the cookie from before identity passed: the reply that
			// carried the new one never reached it (a dropped connection), or a second press of
			// "Submit answers" went before the first came back (another tab has the new cookie too).
			return ended.channel === 'in_person'
				? 'Your answers were accepted, but the reply to them didn’t reach this page (the connection dropped, or the button was pressed twice), and for your safety signing goes on only where that reply went. Hand this device back to your sales representative to open it again; you won’t be asked the questions again.'
				: `Your answers were accepted, but the reply to them didn’t reach this page (the connection dropped, or the button was pressed twice), and for your safety signing goes on only where that reply went. ${openAgain(ended)} to go on; you won’t be asked the questions again.`;
		case 'expired':
			return `A signing session lasts at most ${plural(MAX_SESSION_MS / 3_600_000, 'hour')}, and this one has ended. ${openAgain(ended)} to go on.${keptNote(ended)}`;
		default:
			// The done page on a device that has no session (the link's page offers it after a
			// decision): not "open the link again", whose page sent them here.
			if (step === 'done') {
				return 'This device has no signing open, so there are no copies to show here. If you signed on another device, its confirmation page has them while it stays open; otherwise your sales representative can send you copies of the documents.';
			}
			return 'Your signing session has ended or was never started. Open the link from your email again, or ask your sales representative for a new one.';
	}
}

/**
 * How a finished session's done page ended: idle, too old or closed. A cookie from before identity
 * passed (`replaced`) keeps its own words: the done page it led to may still be open in the tab
 * that has the new one.
 */
const closedAfter = (ended: EndedSession | undefined) =>
	ended && ended.end !== 'replaced' ? ended.finished : undefined;

/** Back to the link as the merchant got it: from their email, or as the rep passed it on. */
const openAgain = (ended: EndedSession) =>
	ended.emailed === false ? 'Open your signing link again' : 'Open the link from your email again';

const keptNote = (ended: EndedSession) =>
	ended.kept
		? ' Your names, emails and signature are kept for it; you will tick the documents and type your Social Security Number again.'
		: '';
