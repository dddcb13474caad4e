import { describe, expect, it } from 'vitest';
import { documentVerdict, referenceVerdict } from './verdict';
import type { ReferenceCheck } from './verify';

const TZ = 'America/Chicago';

const record = (over: Partial<Extract<ReferenceCheck, { found: true }>> = {}): ReferenceCheck => ({
	found: true,
	applicationId: 50001,
	officeId: 1207,
	outcome: 'accepted',
	decidedAt: new Date('2026-11-20T15:04:00Z'),
	chainOk: true,
	chainCount: 12,
	chainBrokenAt: null,
	contentHash: 'ab'.repeat(32),
	...over
});

describe('a reference’s verdict', () => {
	it('says whether the signing was signed or declined, and whether its trail verifies', () => {
		const signed = referenceVerdict('ref', record(), TZ);
		expect(signed.tone).toBe('good');
		expect(signed.title).toBe('Signed, on record, and the trail verifies');
		// In the office's time, as the documents lead with it, and UTC beside it.
		expect(signed.lines[0]).toBe(
			'The signing it names is in our records: application 50001 of office 1207, accepted and signed Nov 20, 2026, 9:04:00 AM CST (2026-11-20 15:04:00 UTC).'
		);
		const declined = referenceVerdict('ref', record({ outcome: 'declined' }), TZ);
		expect(declined.title).toBe('Declined, on record, and the trail verifies');
		expect(declined.lines[0]).toContain('of office 1207, declined ');
		const broken = referenceVerdict(
			'ref',
			record({ outcome: 'declined', chainOk: false, chainBrokenAt: 4 }),
			TZ
		);
		expect(broken).toMatchObject({
			tone: 'warn',
			title: 'Declined, on record, but the trail does not verify'
		});
		expect(broken.lines[1]).toContain('breaks at event 4 of 12');
	});

	it('says plainly when there is no such signing', () => {
		expect(referenceVerdict('ref', { found: false }, TZ)).toMatchObject({
			tone: 'bad',
			title: 'No such signing on record'
		});
	});
});

describe('a document’s verdict', () => {
	it('says a changed file is not to be relied on, and why, once', () => {
		const changed = documentVerdict(
			{ result: 'tampered', reason: 'its content was changed after it was sealed' },
			TZ
		);
		expect(changed.title).toBe('Changed after it was sealed');
		expect(changed.lines).toEqual([
			'Do not rely on this file: its content was changed after it was sealed. Ask whoever gave it to you for the file as it was downloaded from the portal, or ask the sales office named on it to check it against its records.'
		]);
	});
});
