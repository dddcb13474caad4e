import { describe, expect, it } from 'vitest';
import { renderNote } from './notes';

const context = { repName: 'Sam Ortiz', timeZone: 'America/Chicago', consoleUrl: null };
const declined = (extra: Record<string, unknown>) =>
	renderNote(
		{
			kind: 'declined',
			signer: 'Dana Whitfield',
			reason: null,
			business: 'Blue Heron Bakery',
			...extra
		},
		1207,
		50001,
		context
	).text.replace(/\s+/g, ' ');

describe('the rep’s note of a decline', () => {
	it('names the signer once identity passed', () => {
		expect(declined({})).toContain(
			'Dana Whitfield declined the application for Blue Heron Bakery (office 1207, application 50001).'
		);
	});

	it('does not say the owner declined from a link before identity: anyone with it could have', () => {
		const text = declined({ beforeIdentity: 'link', reason: 'Too dear' });
		expect(text).not.toContain('Dana Whitfield declined');
		expect(text).toContain(
			'was declined from its signing link, before the identity questions confirmed who was signing. The application names Dana Whitfield as its owner.'
		);
		expect(text).toContain('> Too dear');
	});

	it('says the merchant declined in person on the tablet', () => {
		const text = declined({ beforeIdentity: 'in_person' });
		expect(text).toContain('Dana Whitfield declined the application for Blue Heron Bakery');
		expect(text).toContain('in person on your tablet, before the identity questions');
		expect(text).toContain('They gave no reason.');
	});
});
