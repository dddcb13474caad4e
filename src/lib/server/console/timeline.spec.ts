import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '$lib/server/audit/audit';
import { timeline } from './timeline';

const REP_ID = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const SESSION = '0f1e2d3c-4b5a-4968-8776-655443322110';
let seq = 0;

function event(over: Partial<AuditEvent>): AuditEvent {
	seq++;
	return {
		id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
		officeId: 1207,
		applicationId: 50001,
		seq,
		at: new Date(Date.UTC(2026, 10, 23, 9, seq)),
		type: 'terms.shown',
		channel: null,
		ip: null,
		userAgent: null,
		rep: null,
		sessionId: null,
		data: {},
		prevHash: '0'.repeat(64),
		hash: '0'.repeat(64),
		...over
	} as AuditEvent;
}

describe('the timeline’s times', () => {
	it('are the office’s, to the second, newest first, with the instant for <time>', () => {
		const at = new Date(Date.UTC(2026, 10, 23, 15, 4, 5, 678));
		const entries = timeline(
			[event({ at }), event({ at: new Date(at.getTime() + 1000), type: 'decision.delivered' })],
			'America/Chicago'
		);
		expect(entries.map((e) => e.when)).toEqual([
			{ iso: '2026-11-23T15:04:06.678Z', text: 'Nov 23, 2026, 9:04:06 AM CST' },
			{ iso: '2026-11-23T15:04:05.678Z', text: 'Nov 23, 2026, 9:04:05 AM CST' }
		]);
	});
});

describe('the timeline names who acted', () => {
	it('questions left past their time and closed by the worker: the portal, not the merchant', () => {
		const onLink = { channel: 'link' as const, sessionId: SESSION };
		const entries = timeline(
			[
				event({ ...onLink, type: 'identity.failed', ip: '203.0.113.9' }),
				event({
					...onLink,
					type: 'identity.failed',
					data: { reason: 'time limit passed', closedBy: 'portal' }
				}),
				event({ ...onLink, type: 'identity.locked', data: { closedBy: 'portal' } })
			],
			'America/Chicago',
			new Map()
		);
		expect(entries.map((e) => e.by).reverse()).toEqual([
			'Merchant, from 203.0.113.9',
			'Portal',
			'Portal'
		]);
	});

	it('a link opened in two browsers: two sessions, each with its address and browser', () => {
		const OTHER = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
		const phone =
			'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
		const desktop =
			'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
		const onLink = (sessionId: string | null, ip: string, userAgent: string) => ({
			channel: 'link' as const,
			sessionId,
			ip,
			userAgent
		});
		const entries = timeline(
			[
				event({ ...onLink(null, '203.0.113.9', phone), type: 'link.opened' }),
				event({ ...onLink(SESSION, '203.0.113.9', phone), type: 'session.started' }),
				event({ ...onLink(OTHER, '198.51.100.4', desktop), type: 'session.started' }),
				event({ ...onLink(SESSION, '203.0.113.9', phone), type: 'terms.shown' })
			],
			'America/Chicago'
		);
		expect(entries.map((e) => e.by).reverse()).toEqual([
			'Merchant, from 203.0.113.9, Safari 17.0 on iOS 17.0 (Apple iPhone)',
			'Merchant (session 1), from 203.0.113.9, Safari 17.0 on iOS 17.0 (Apple iPhone)',
			'Merchant (session 2), from 198.51.100.4, Chrome 131.0 on Windows 10 (desktop)',
			'Merchant (session 1), from 203.0.113.9, Safari 17.0 on iOS 17.0 (Apple iPhone)'
		]);
		// One session: no number.
		const [one] = timeline(
			[event({ ...onLink(SESSION, '203.0.113.9', phone), type: 'terms.shown' })],
			'America/Chicago'
		);
		expect(one!.by).toBe('Merchant, from 203.0.113.9, Safari 17.0 on iOS 17.0 (Apple iPhone)');
	});

	it('in person: the rep by name for the hand-over, the merchant on the rep’s device after it', () => {
		const inPerson = {
			channel: 'in_person' as const,
			rep: REP_ID,
			sessionId: SESSION,
			ip: '10.0.0.7'
		};
		const entries = timeline(
			[
				event({ ...inPerson, type: 'session.started' }),
				event({ ...inPerson, type: 'terms.shown' }),
				event({ ...inPerson, type: 'session.handed_over' }),
				event({ ...inPerson, type: 'decision.accepted' }),
				event({ ...inPerson, type: 'decision.delivered' })
			],
			'America/Chicago',
			new Map([[REP_ID, 'Sam Ortiz (rep 31)']])
		);
		expect(entries.map((e) => e.by).reverse()).toEqual([
			'Sam Ortiz (rep 31)',
			'Merchant, on the device of Sam Ortiz (rep 31)',
			'Sam Ortiz (rep 31)',
			'Merchant, on the device of Sam Ortiz (rep 31)',
			'Portal'
		]);
	});

	it('in person: says how the session started, and when and why the device went back to the rep', () => {
		const inPerson = { channel: 'in_person' as const, rep: REP_ID, sessionId: SESSION };
		const attested = {
			inPerson: {
				repId: REP_ID,
				repNo: 31,
				repName: 'Sam Ortiz',
				photoIdChecked: true,
				idType: 'Driver’s license',
				idLast4: 'K7Q2'
			}
		};
		const entries = timeline(
			[
				event({ ...inPerson, type: 'session.started', data: attested }),
				event({ ...inPerson, type: 'device.locked', data: { reason: 'returned' } }),
				event({ ...inPerson, type: 'device.unlock_refused', data: { left: 1 } }),
				event({ ...inPerson, type: 'device.unlock_refused', data: { left: 0 } }),
				event({ ...inPerson, type: 'device.unlocked', data: { repNo: 31, repName: 'Sam Ortiz' } }),
				event({
					...inPerson,
					type: 'session.handed_over',
					data: { inPerson: { ...attested.inPerson, idType: null, idLast4: null } }
				}),
				event({ ...inPerson, type: 'device.locked', data: { reason: 'idle', idleSeconds: 180 } }),
				event({ ...inPerson, type: 'device.locked', data: { reason: 'finished' } })
			],
			'America/Chicago',
			new Map([[REP_ID, 'Sam Ortiz (rep 31)']])
		);
		expect(entries.map(({ title, detail, by }) => ({ title, detail, by })).reverse()).toEqual([
			{
				title: 'Signing session started',
				detail: 'In person; photo ID checked: Driver’s license ending K7Q2',
				by: 'Sam Ortiz (rep 31)'
			},
			{
				title: 'Rep’s device locked',
				detail: '“Return to rep” was pressed',
				by: 'On the device of Sam Ortiz (rep 31)'
			},
			{
				title: 'Wrong password at the rep’s device’s lock screen',
				detail: '1 more try before unlocking pauses',
				by: 'On the device of Sam Ortiz (rep 31)'
			},
			{
				title: 'Wrong password at the rep’s device’s lock screen',
				detail: 'Unlocking paused after too many wrong passwords',
				by: 'On the device of Sam Ortiz (rep 31)'
			},
			{ title: 'Rep’s device unlocked by the rep', detail: null, by: 'Sam Ortiz (rep 31)' },
			{
				title: 'Rep’s device handed to the signer again',
				detail: 'In person; photo ID checked',
				by: 'Sam Ortiz (rep 31)'
			},
			{ title: 'Rep’s device locked', detail: 'No touch for 3 minutes', by: 'Portal' },
			{ title: 'Rep’s device locked', detail: 'After the decision', by: 'Portal' }
		]);
	});

	it('by link: the rep as the trail names them, the merchant with their address', () => {
		const entries = timeline(
			[
				event({
					type: 'link.created',
					channel: 'link',
					rep: 'Sam Ortiz (rep 31, sam@example.com)'
				}),
				event({
					type: 'link.revoked',
					channel: 'link',
					data: { reason: 'replaced', by: 'operator-api' }
				}),
				event({ type: 'link.created', channel: 'link', data: { createdBy: 'operator-api' } }),
				event({ type: 'link.opened', channel: 'link', ip: '203.0.113.9' }),
				event({ type: 'terms.shown', channel: 'link', sessionId: SESSION, ip: '203.0.113.9' })
			],
			'America/Chicago'
		);
		expect(entries.map((e) => e.by).reverse()).toEqual([
			'Sam Ortiz (rep 31, sam@example.com)',
			'Operator API',
			'Operator API',
			'Merchant, from 203.0.113.9',
			'Merchant, from 203.0.113.9'
		]);
		// A link the API made without an address was not made for a rep to copy.
		const details = entries.map((e) => e.detail);
		expect(details).toContain('Not emailed');
		expect(details.filter((d) => d?.startsWith('To copy and hand over'))).toHaveLength(1);
	});

	it('a demo link from the start page is named so, not as the operator API’s', () => {
		const [entry] = timeline(
			[event({ type: 'link.created', channel: 'link', data: { createdBy: 'sandbox-demo' } })],
			'America/Chicago'
		);
		expect(entry).toMatchObject({
			by: 'Start page (demo)',
			detail: 'A demo link, made from the portal’s start page (not emailed)'
		});
	});

	it('so is the one `npm start` prints, though the operator API made it', () => {
		// Newest first.
		const [replaced, made] = timeline(
			[
				event({ type: 'link.created', channel: 'link', data: { createdBy: 'start-demo' } }),
				event({
					type: 'link.revoked',
					channel: 'link',
					data: { reason: 'replaced', by: 'start-demo' }
				})
			],
			'America/Chicago'
		);
		expect(made).toMatchObject({
			by: 'Portal’s start (demo)',
			detail: 'A demo link, printed when the portal started (not emailed)'
		});
		expect(replaced!.by).toBe('Portal’s start (demo)');
	});
});

describe('the timeline says who decided', () => {
	it('and, when the names typed are not the owner’s, whose identity the questions checked', () => {
		const decided = { channel: 'link' as const, sessionId: SESSION, ip: '203.0.113.9' };
		const entries = timeline(
			[
				event({ ...decided, type: 'decision.accepted', data: { signerName: 'Dana Whitfield' } }),
				event({
					...decided,
					type: 'decision.accepted',
					data: { signerName: 'Olga Petrova', ownerName: 'Dana Whitfield' }
				}),
				event({
					...decided,
					type: 'decision.declined',
					data: { signerName: 'Olga Petrova', ownerName: 'Dana Whitfield' }
				})
			],
			'America/Chicago'
		);
		expect(entries.map((e) => e.detail).reverse()).toEqual([
			'Signed by Dana Whitfield',
			'Signed by Olga Petrova, not the owner the application names (Dana Whitfield), whom the identity questions were about',
			'By Olga Petrova, not the owner the application names (Dana Whitfield), whom the identity questions were about; no reason given'
		]);
	});

	it('says where a pass was carried over from, and why a link ended for signing in person', () => {
		const rep = 'Sam Ortiz (rep 31, sam@example.com)';
		const entries = timeline(
			[
				event({ type: 'link.revoked', rep, data: { linkId: 'L', reason: 'in_person' } }),
				event({
					type: 'link.revoked',
					rep,
					data: { linkId: 'M', reason: 'in_person', expired: true }
				}),
				event({
					type: 'link.revoked',
					rep,
					data: { linkId: 'N', reason: 'replaced', expired: true }
				}),
				event({
					type: 'identity.failed',
					rep,
					sessionId: SESSION,
					data: { reason: 'signing in person', by: `rep:${REP_ID}` }
				}),
				event({
					type: 'identity.passed',
					channel: 'in_person',
					rep: REP_ID,
					sessionId: SESSION,
					data: { by: 'earlier pass, photo ID checked in person', passedOnLink: 'L' }
				}),
				event({
					type: 'identity.passed',
					sessionId: SESSION,
					data: { by: 'earlier link to this email', passedOnLink: 'L' }
				}),
				event({ type: 'identity.passed', sessionId: SESSION, data: { questionSetId: '7' } })
			],
			'America/Chicago',
			new Map([[REP_ID, 'Sam Ortiz (rep 31)']])
		);
		expect(entries.map((e) => [e.detail, e.by]).reverse()).toEqual([
			['Ended when the rep handed their device over for signing in person', rep],
			[
				'It had already expired; ended when the rep handed their device over for signing in person',
				rep
			],
			['It had already expired; replaced by a newer link', rep],
			[
				'The questions were still open on the link when the rep’s device was handed over; they count as a try',
				rep
			],
			[
				'Carried over from an earlier pass, the rep having checked the signer’s photo ID in person',
				'Merchant, on the device of Sam Ortiz (rep 31)'
			],
			['Carried over from an earlier link sent to the same email address', 'Merchant'],
			[null, 'Merchant']
		]);
	});
});

describe('the timeline’s expired links', () => {
	const min = (m: number) => new Date(Date.UTC(2026, 11, 1, 9, m));
	const created = (linkId: string, at: number, expires: number) =>
		event({
			type: 'link.created',
			at: min(at),
			data: { linkId, createdBy: 'test', expiresAt: min(expires).toISOString() }
		});

	it('puts each link’s expiry among the events, unless something ended it before then', () => {
		const S2 = '0f1e2d3c-4b5a-4968-8776-655443322111';
		const events = [
			// A: expires at 10 untouched.
			created('A', 0, 10),
			// B: replaced at 12, before its expiry at 20: no expiry.
			created('B', 11, 20),
			event({ type: 'link.revoked', at: min(12), data: { linkId: 'B', reason: 'replaced' } }),
			// C: a session starts on it at 14; it expires at 16; the session goes on and decides.
			created('C', 13, 16),
			event({
				type: 'session.started',
				at: min(14),
				channel: 'link',
				sessionId: SESSION,
				data: { linkId: 'C' }
			}),
			event({ type: 'terms.shown', at: min(15), channel: 'link', sessionId: SESSION }),
			event({ type: 'identity.passed', at: min(17), channel: 'link', sessionId: SESSION }),
			event({ type: 'decision.accepted', at: min(18), channel: 'link', sessionId: SESSION }),
			// D: the decision came before it was made, so ended nothing of it; E: no expiry recorded.
			created('D', 30, 60),
			event({ type: 'link.created', at: min(31), data: { linkId: 'E' } }),
			// F: expires in the future.
			created('F', 32, 90),
			// G: a session that stopped before the expiry: nothing went on past it.
			created('G', 33, 40),
			event({
				type: 'session.started',
				at: min(34),
				channel: 'link',
				sessionId: S2,
				data: { linkId: 'G' }
			})
		];
		const entries = timeline(events, 'UTC', new Map(), min(70)).reverse();
		const expired = entries.filter((e) => e.title === 'Signing link expired');
		expect(expired.map((e) => [e.key, e.when.iso, e.detail, e.by])).toEqual([
			['expired-A', min(10).toISOString(), 'From then on it opened nothing', 'Portal'],
			[
				'expired-C',
				min(16).toISOString(),
				'From then on it opened nothing new; the merchant’s session started on it before then went on',
				'Portal'
			],
			['expired-G', min(40).toISOString(), 'From then on it opened nothing', 'Portal'],
			['expired-D', min(60).toISOString(), 'From then on it opened nothing', 'Portal']
		]);
		// In time order among the events: C's expiry between the terms and the pass.
		const titles = entries.map((e) => e.title);
		expect(titles.indexOf('Signing link expired', titles.indexOf('Acceptance terms shown'))).toBe(
			titles.indexOf('Identity verified') - 1
		);
		expect(new Set(entries.map((e) => e.key)).size).toBe(entries.length);
		// Spent by a decision, or a decline before identity, before its time: no expiry.
		for (const type of ['decision.declined', 'decline.recorded']) {
			const spent = [created('X', 0, 10), event({ type, at: min(5) })];
			expect(timeline(spent, 'UTC', new Map(), min(70)).map((e) => e.title)).not.toContain(
				'Signing link expired'
			);
		}
		// Before any expiry, none is shown.
		expect(
			timeline(events, 'UTC', new Map(), min(5)).filter((e) => e.title === 'Signing link expired')
		).toEqual([]);
	});
});
