import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '$lib/server/audit/audit';
import { linkEnded } from './links';

const revoked = (linkId: string, reason: string) =>
	({ type: 'link.revoked', data: { linkId, reason } }) as unknown as AuditEvent;
const other = { type: 'link.created', data: { linkId: 'C' } } as unknown as AuditEvent;

describe('how a link the merchant can no longer open ended', () => {
	it('reads the trail: replaced, revoked, ended by a hand-over', () => {
		const events = [revoked('A', 'replaced'), revoked('B', 'revoked'), revoked('D', 'in_person')];
		expect(linkEnded('A', events, true)).toBe('replaced');
		expect(linkEnded('B', events, true)).toBe('revoked');
		expect(linkEnded('D', events, false)).toBe('in_person');
	});

	it('says an expired link ended by a hand-over had expired, and a link declined on was', () => {
		const expired = {
			type: 'link.revoked',
			data: { linkId: 'E', reason: 'in_person', expired: true }
		} as unknown as AuditEvent;
		expect(linkEnded('E', [expired], false)).toBe('expired');
		const declined = {
			type: 'decline.recorded',
			data: { linkId: 'F', stage: 'link' }
		} as unknown as AuditEvent;
		// Whatever was decided later, on another link.
		expect(linkEnded('F', [declined], true)).toBe('declined');
	});

	it('says a decision ended one the trail does not, and otherwise that it was used', () => {
		expect(linkEnded('C', [other, revoked('A', 'replaced')], true)).toBe('decided');
		expect(linkEnded('C', [other], false)).toBe('used');
	});
});
