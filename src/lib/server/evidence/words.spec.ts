import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '$lib/server/audit/audit';
import { HANDED_AGAIN_STEP, LINK_EXPIRED_STEP, shownSteps } from './certificate';
import { contentHash, IDENTITY_STEP } from './facts';
import type { EvidenceFacts } from './facts';
import { describeDevice, eventSentence, officeTime, photoIdText, utcTime } from './words';

describe('evidence words', () => {
	it('names a device as a person would', () => {
		expect(
			describeDevice(
				'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
			)
		).toBe('Chrome 120.0 on Windows 10 (desktop)');
		expect(describeDevice(null)).toBe('not recorded');
		expect(describeDevice('curl/8.5.0')).toBe('Unknown browser');
	});

	it('says what the rep noted of the photo ID they checked, and no more', () => {
		const checked = (idType: string | null, idLast4: string | null) =>
			photoIdText({
				channel: {
					kind: 'in_person',
					inPerson: { photoIdChecked: true, idType, idLast4, repName: 'Sam', repNo: 31 }
				}
			} as unknown as EvidenceFacts);
		expect(checked('Passport', '9Z81')).toBe('Checked by the rep: Passport ending 9Z81');
		expect(checked('Passport', null)).toBe('Checked by the rep: Passport');
		expect(checked(null, '9Z81')).toBe('Checked by the rep: ID ending 9Z81');
		// Not "Photo ID: Checked by the rep: Photo ID".
		expect(checked(null, null)).toBe('Checked by the rep');
		expect(photoIdText({ channel: { kind: 'link' } } as unknown as EvidenceFacts)).toBeNull();
		// Handed over again: checked again, and this is the last check.
		const again = photoIdText({
			channel: {
				kind: 'in_person',
				inPerson: { photoIdChecked: true, idType: 'Passport', idLast4: '9Z81' }
			},
			handedOverAgain: [new Date()]
		} as unknown as EvidenceFacts);
		expect(again).toBe('Checked by the rep: Passport ending 9Z81, at the last hand-over');
	});

	it('tells a link replaced by a newer one from one the rep revoked', () => {
		const say = (data: Record<string, unknown>, rep: string | null) =>
			eventSentence({ type: 'link.revoked', data, rep } as AuditEvent);
		expect(say({ linkId: 'l1', reason: 'replaced', by: 'rep:r1' }, 'Sam Ortiz (rep 31)')).toBe(
			'A signing link was replaced by a newer one, and no longer opens.'
		);
		expect(say({ linkId: 'l1', reason: 'revoked' }, 'Sam Ortiz (rep 31, sam@example.com)')).toBe(
			'Sam Ortiz (rep 31, sam@example.com) revoked the signing link, and it no longer opens.'
		);
		expect(say({ linkId: 'l1', reason: 'revoked' }, null)).toBe(
			'The rep revoked the signing link, and it no longer opens.'
		);
		expect(say({ linkId: 'l1', reason: 'in_person' }, null)).toBe(
			'The signing link was ended when the rep handed their device over for signing in person, and no longer opens.'
		);
		expect(say({ linkId: 'l1', reason: 'in_person', expired: true }, null)).toBe(
			'The signing link, which had already expired, was ended when the rep handed their device over for signing in person.'
		);
	});

	it('says when and why the rep’s device left the signer’s hands, and who opened it', () => {
		const say = (type: string, data: Record<string, unknown>) =>
			eventSentence({ type, data } as AuditEvent);
		expect(say('device.locked', { reason: 'returned' })).toBe(
			'“Return to rep” was pressed on the device, which locked until the rep’s password.'
		);
		expect(say('device.locked', { reason: 'idle', idleSeconds: 180 })).toBe(
			'The device locked itself after 3 minutes without a touch, until the rep’s password.'
		);
		expect(say('device.locked', { reason: 'idle' })).toBe(
			'The device locked itself after the signing session went idle, until the rep’s password.'
		);
		expect(say('device.locked', { reason: 'finished' })).toBe(
			'The device locked behind the decision’s confirmation, until the rep’s password.'
		);
		expect(say('device.locked', { reason: 'moved' })).toBe(
			'The device locked when the signing was handed over on another device, to go on there; it stayed locked until the rep’s password.'
		);
		expect(say('device.unlocked', { repNo: 31, repName: 'Sam Ortiz' })).toBe(
			'Sam Ortiz (rep 31) unlocked their device with their password.'
		);
		expect(say('device.unlock_refused', { left: 3 })).toBe(
			'A wrong password was typed at the device’s lock screen.'
		);
		expect(say('device.unlock_refused', { left: 0 })).toBe(
			'A wrong password was typed at the device’s lock screen, and unlocking paused for a while.'
		);
		const inPerson = { repNo: 31, repName: 'Sam Ortiz', photoIdChecked: true };
		expect(say('session.handed_over', { inPerson })).toBe(
			'Sam Ortiz (rep 31) handed their device to the signer again to go on, after checking the signer’s photo ID.'
		);
		expect(say('session.handed_over', {})).toBe(
			'The rep handed their device to the signer again to go on.'
		);
	});

	it('prints the office time with its zone and UTC alike', () => {
		const at = new Date('2026-07-04T15:04:05Z');
		expect(officeTime(at, 'America/Chicago')).toBe('Jul 4, 2026, 10:04:05 AM CDT');
		expect(officeTime(new Date('2026-01-04T15:04:05Z'), 'America/Chicago')).toBe(
			'Jan 4, 2026, 9:04:05 AM CST'
		);
		expect(utcTime(at)).toBe('2026-07-04 15:04:05 UTC');
	});

	it('prints the key steps in time order, a pass from an earlier session named so', () => {
		const at = (m: number) => new Date(Date.UTC(2026, 2, 10, 15, m));
		const steps = [
			{ label: 'Link opened, session started', at: at(10) },
			{ label: 'Consent to electronic records', at: at(11) },
			{ label: IDENTITY_STEP, at: at(2) },
			{ label: 'Declined', at: at(12) }
		];
		const identity = { attempt: 1, questionSetId: 'Q1', at: at(2), earlierSession: true };
		const linkExpiredMidway = null;
		expect(shownSteps({ steps, identity, linkExpiredMidway }).map((s) => s.label)).toEqual([
			'Identity verified (earlier session)',
			'Link opened, session started',
			'Consent to electronic records',
			'Declined'
		]);
		// In this session: the label stays.
		const own = { ...identity, earlierSession: false };
		expect(shownSteps({ steps, identity: own, linkExpiredMidway })[0]!.label).toBe(IDENTITY_STEP);
		// A link that expired while the session went on: among the steps, at its time.
		expect(
			shownSteps({
				steps,
				identity: own,
				linkExpiredMidway: new Date(at(11).getTime() + 30_000)
			}).map((s) => s.label)
		).toEqual([
			IDENTITY_STEP,
			'Link opened, session started',
			'Consent to electronic records',
			LINK_EXPIRED_STEP,
			'Declined'
		]);
		// Each later hand-over of the device, at its time.
		expect(
			shownSteps({ steps, identity: own, linkExpiredMidway, handedOverAgain: [at(11)] }).map(
				(s) => s.label
			)
		).toEqual([
			IDENTITY_STEP,
			'Link opened, session started',
			'Consent to electronic records',
			HANDED_AGAIN_STEP,
			'Declined'
		]);
		// The hash is over the facts' own order: printing sorted leaves it alone.
		const facts = { steps, identity } as unknown as Parameters<typeof contentHash>[0];
		const before = contentHash({ ...facts, decidedAt: at(12) });
		shownSteps({ steps, identity, linkExpiredMidway: new Date(at(11).getTime() + 30_000) });
		expect(contentHash({ ...facts, decidedAt: at(12) })).toBe(before);
		expect(steps[2]!.label).toBe(IDENTITY_STEP);
	});
});
