import { describe, expect, it } from 'vitest';
import { endedMessage } from './guard';
import type { EndedSession } from './session';

const ended = (over: Partial<EndedSession>): EndedSession => ({
	end: 'replaced',
	sessionId: '00000000-0000-4000-8000-000000000000',
	officeId: 1207,
	applicationId: 50001,
	repNo: 31,
	linkId: null,
	channel: 'link',
	...over
});

describe('why a signing page can’t be used', () => {
	it('says answers accepted on a page the reply never reached, whatever kept it from there', () => {
		const link = endedMessage(ended({ channel: 'link' }), 'identity');
		expect(link).toBe(
			'Your answers were accepted, but the reply to them didn’t reach this page (the connection dropped, or the button was pressed twice), and for your safety signing goes on only where that reply went. Open the link from your email again to go on; you won’t be asked the questions again.'
		);
		// On a tablet there is no link to open: the rep opens it again.
		const tablet = endedMessage(ended({ channel: 'in_person' }), 'identity');
		expect(tablet).toContain('Hand this device back to your sales representative');
		expect(tablet).not.toContain('email');
	});

	it('sends the merchant back to the link as they got it: from their email, or passed on another way', () => {
		const emailed = endedMessage(ended({ emailed: true }), 'sign');
		expect(emailed).toContain('Open the link from your email again to go on');
		// A link made to copy, or the demo's: no email holds it.
		const copied = endedMessage(ended({ emailed: false }), 'sign');
		expect(copied).toContain('Open your signing link again to go on');
		expect(copied).not.toContain('email');
	});

	it('says a hand-over ended the session, and what came of it since: a newer link, or a decision', () => {
		const revoked = (r: NonNullable<EndedSession['revoked']>) =>
			endedMessage(ended({ end: 'link_revoked', revoked: r }), 'identity');
		expect(revoked({ how: 'in_person', by: null, inPerson: true })).toContain(
			'If that signing wasn’t finished, ask them how to go on.'
		);
		// A newer link since the hand-over: the hand-over ended this session, the link goes on.
		const newer = revoked({ how: 'replaced', by: null, inPerson: true });
		expect(newer).toContain('began signing this application with you in person');
		expect(newer).toContain('open the link in the most recent email you received');
		const unsent = revoked({ how: 'replaced_unsent', by: null, inPerson: true });
		expect(unsent).toContain('began signing this application with you in person');
		expect(unsent).toContain('wasn’t emailed: ask them for it');
		// A newer link that no longer opens either (revoked, expired, used): none to go on with.
		expect(revoked({ how: 'replaced_closed', by: null })).toBe(
			'Your sales representative made a newer signing link, which ended this session, and that one no longer opens either. Ask them for a new link if you still want to sign.'
		);
		// Without a hand-over, a newer link ended it.
		expect(revoked({ how: 'replaced', by: null, inPerson: false })).toContain(
			'sent you a newer signing link, which ended this session'
		);
		// Decided since (in person or on a newer link, accepted or declined): not "if that signing
		// wasn't finished", nor a link to go on with, nor where it was made.
		const decided =
			'This session has ended, and a decision on this application is already on record. Your sales representative can tell you where things stand, and send you copies of the documents.';
		expect(revoked({ how: 'in_person', by: null, inPerson: true, decided: true })).toBe(decided);
		expect(revoked({ how: 'replaced', by: null, inPerson: true, decided: true })).toBe(decided);
		// Declined before identity since (at the counter, or on the newer link).
		expect(revoked({ how: 'in_person', by: null, inPerson: true, declined: true })).toBe(
			'This session has ended, and the application has been declined since. If you have changed your mind, ask your sales representative for a new link.'
		);
	});
});
