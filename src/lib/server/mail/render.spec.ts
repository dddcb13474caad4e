import { describe, expect, it } from 'vitest';
import { linkEmail } from '$lib/server/links/email';
import { greetingFor } from '$lib/server/signing/application';
import { renderNote, type NoteContext } from './notes';
import { escapeHtml, officeTime, renderEmail } from './render';

describe('email rendering', () => {
	it('escapes every piece of text in the HTML and keeps it as typed in the text', () => {
		const hostile = `<img src=x onerror="alert(1)"> & 'quotes'`;
		const { text, html } = renderEmail({
			title: hostile,
			blocks: [
				{ kind: 'p', text: 'For {strong}.', strong: hostile },
				{ kind: 'quote', text: hostile },
				{ kind: 'contact', heading: hostile, lines: [hostile, { text: hostile, link: 'mailto' }] },
				{ kind: 'small', text: hostile, href: 'https://sign.example.com/s/a?b=1&c=2' }
			]
		});
		expect(html).not.toContain('<img');
		expect(html).toContain(escapeHtml(hostile));
		expect(html).toContain('href="https://sign.example.com/s/a?b=1&amp;c=2"');
		expect(text).toContain(`For ${hostile}.`);
		expect(text).toContain(`> ${hostile}`);
	});

	it('refuses a link that is not http(s)', () => {
		expect(() =>
			renderEmail({
				title: 'x',
				blocks: [{ kind: 'button', href: 'javascript:alert(1)', label: 'Go' }]
			})
		).toThrow(/http or https/);
	});

	it('gives times in the office zone, with the zone named, summer and winter', () => {
		expect(officeTime(new Date('2026-12-01T17:00:00Z'), 'America/Chicago')).toBe(
			'Tuesday, December 1, 2026 at 11:00 AM Central Standard Time'
		);
		expect(officeTime(new Date('2026-07-01T17:00:00Z'), 'America/Chicago')).toBe(
			'Wednesday, July 1, 2026 at 12:00 PM Central Daylight Time'
		);
		expect(officeTime(new Date('2026-07-01T17:00:00Z'), 'America/New_York')).toBe(
			'Wednesday, July 1, 2026 at 1:00 PM Eastern Daylight Time'
		);
	});

	it('writes the link email: business, link, expiry, and the rep when known', () => {
		const base = {
			business: 'Blue Heron Bakery',
			url: 'https://sign.example.com/s/abc',
			expiresAt: new Date('2026-12-01T17:00:00Z'),
			timeZone: 'America/Chicago'
		};
		const withRep = linkEmail({
			...base,
			rep: { name: 'Sam Ortiz', email: 'sam@office.example', phone: '(217) 555-0100' }
		});
		expect(withRep.subject).toBe('Please review and sign: Blue Heron Bakery');
		expect(withRep.text).toContain('Your merchant application for Blue Heron Bakery is ready');
		expect(withRep.text).toContain('Review and sign:\nhttps://sign.example.com/s/abc');
		expect(withRep.text).toContain(
			'This link works until Tuesday, December 1, 2026 at 11:00 AM Central Standard Time.'
		);
		expect(withRep.text).toContain(
			'Your sales representative\n  Sam Ortiz\n  sam@office.example\n  (217) 555-0100'
		);
		expect(withRep.html).toContain('<strong>Blue Heron Bakery</strong>');
		// On a phone, the rep's address writes and the number calls with one tap.
		expect(withRep.html).toContain('href="mailto:sam@office.example"');
		expect(withRep.html).toContain('href="tel:+12175550100"');
		// The text gives the link once; the HTML gives it under the button and as a fallback.
		expect(withRep.text.split(base.url)).toHaveLength(2);
		expect(withRep.html.split(`href="${base.url}"`)).toHaveLength(3);
		expect(withRep.text).not.toContain('If the button does not work');
		const without = linkEmail(base);
		expect(without.text).not.toContain('Reply to this email');
		expect(without.text).toContain('contact your sales representative');
		// No rep account, and the operator set an office contact (OFFICE_CONTACT_*): it is named
		// as the office's, not as a rep.
		const office = linkEmail({
			...base,
			rep: {
				name: 'Office 1207 sales desk',
				email: 'desk@office.example',
				phone: null,
				office: true
			}
		});
		expect(office.text).toContain(
			'Your sales office\n  Office 1207 sales desk\n  desk@office.example\n  Reply to this email to reach them.'
		);
		expect(office.text).not.toContain('Your sales representative');
		// A resend says the earlier link no longer works, after the opening; a first link does not.
		const replacing = linkEmail({ ...base, replacesEarlier: true });
		expect(replacing.text).toContain(
			'is ready for your review and signature.\n\nIf you received a signing link for this application before, it no longer works: please use this one.'
		);
		expect(replacing.html).toContain('it no longer works: please use this one.');
		expect(withRep.text).not.toContain('no longer works');
		// Questions locked by too many tries: said, with when they unlock, before the ten minutes.
		const locked = linkEmail({ ...base, questionsLockedUntil: new Date('2026-11-30T15:00:00Z') });
		expect(locked.text).toContain(
			'is ready for your review and signature.\n\nFor your security, after too many unsuccessful tries the credit bureau’s identity questions for this application are locked until Monday, November 30, 2026 at 9:00 AM Central Standard Time. Open the link after then to answer them and sign.'
		);
		const lockedPastExpiry = linkEmail({
			...base,
			questionsLockedUntil: new Date('2026-12-02T15:00:00Z')
		});
		expect(lockedPastExpiry.text).toContain(
			'This link expires before then: after that time, ask your sales representative for a new one.'
		);
		expect(withRep.text).not.toContain('locked');
		// The greeting names the owner when the email is theirs (greetingFor), else no one.
		expect(withRep.text).toMatch(/^Hello,\n/m);
		const named = linkEmail({ ...base, greet: 'Dana Whitfield' });
		expect(named.text).toMatch(/^Hello Dana Whitfield,\n/m);
		expect(named.html).toContain('Hello Dana Whitfield,');
		expect(linkEmail({ ...base, greet: 'A <b>&amp;</b>' }).html).toContain(
			'Hello A &lt;b&gt;&amp;amp;&lt;/b&gt;,'
		);
	});

	it('greets the first owner by name only at the address the application gives for them', () => {
		const owner = {
			Ownr1_Legal_Name_First: ' Dana ',
			Ownr1_Legal_Name_Last: 'Whitfield',
			Ownr1_Email: 'Dana@BlueHeron.example '
		};
		expect(greetingFor(owner, 'dana@blueheron.example')).toBe('Dana Whitfield');
		expect(greetingFor(owner, 'books@blueheron.example')).toBeNull();
		expect(greetingFor({ ...owner, Ownr1_Email: '' }, '')).toBeNull();
		expect(
			greetingFor(
				{ ...owner, Ownr1_Legal_Name_First: '', Ownr1_Legal_Name_Last: ' ' },
				'dana@blueheron.example'
			)
		).toBeNull();
		expect(greetingFor({ ...owner, Ownr1_Legal_Name_Last: '' }, 'dana@blueheron.example')).toBe(
			'Dana'
		);
	});

	it('tells the rep of a signature, and where its delivery stands as the email is written', () => {
		const signed = (delivery: NoteContext['delivery']) =>
			renderNote(
				{ kind: 'signed', signer: 'Dana Whitfield', business: 'Blue Heron Bakery' },
				1207,
				50101,
				{ repName: 'Sam Ortiz', timeZone: 'America/Chicago', consoleUrl: null, delivery }
			).text;
		const lead =
			'Dana Whitfield accepted and signed the application for Blue Heron Bakery (office 1207, application 50101).';
		const onItsWay =
			'The decision goes to the onboarding service; if the service refuses it, the portal writes to you again.';
		for (const d of [undefined, null, { status: 'pending' as const, merchantDecisionId: null }]) {
			expect(signed(d)).toContain(`${lead} ${onItsWay}`);
		}
		expect(signed({ status: 'delivered', merchantDecisionId: 80412 })).toContain(
			`${lead} The onboarding service has received the decision, as decision no. 80412.`
		);
		expect(signed({ status: 'delivered', merchantDecisionId: null })).toContain(
			`${lead} The onboarding service has received the decision.`
		);
		const refused = signed({ status: 'rejected', merchantDecisionId: null });
		expect(refused).toContain(
			`${lead} The onboarding service did not take the decision: the portal writes to you about it separately.`
		);
		for (const text of [refused, signed({ status: 'delivered', merchantDecisionId: 1 })]) {
			expect(text).not.toContain(onItsWay);
		}
		expect(signed(null)).not.toContain('owner');
	});

	it('tells the rep of a decline after identity where its decision stands; one before, that it stayed here', () => {
		const declined = (beforeIdentity: 'link' | undefined) =>
			renderNote(
				{
					kind: 'declined',
					signer: 'Dana Whitfield',
					reason: null,
					beforeIdentity,
					business: 'Blue Heron Bakery'
				},
				1207,
				50101,
				{
					repName: 'Sam Ortiz',
					timeZone: 'America/Chicago',
					consoleUrl: null,
					delivery: { status: 'delivered', merchantDecisionId: 80413 }
				}
			).text;
		expect(declined(undefined)).toContain(
			'Dana Whitfield declined the application for Blue Heron Bakery (office 1207, application 50101). The onboarding service has received the decision, as decision no. 80413.'
		);
		expect(declined('link')).toContain('Nothing went to the onboarding service.');
		expect(declined('link')).not.toContain('decision no.');
	});

	it('tells the rep when the signer typed other names than the owner’s', () => {
		const context = { repName: 'Sam Ortiz', timeZone: 'America/Chicago', consoleUrl: null };
		const owner =
			'Those are not the names of the owner the application names, Dana Whitfield, whom the identity questions were about.';
		for (const note of [
			{ kind: 'signed', signer: 'Olga Petrova', owner: 'Dana Whitfield' },
			{ kind: 'declined', signer: 'Olga Petrova', owner: 'Dana Whitfield', reason: null }
		]) {
			const { text } = renderNote({ ...note, business: 'Blue Heron Bakery' }, 1207, 50101, context);
			expect(text).toContain('Olga Petrova');
			expect(text).toContain(owner);
		}
	});
});
