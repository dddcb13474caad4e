import { describe, expect, it } from 'vitest';
import { OnboardingError } from '$lib/server/onboarding/errors';
import { attention, stateDetail, stateLabel } from './labels';
import {
	deriveState,
	identityLockedUntil,
	STATE_KINDS,
	type ApplicationFacts,
	type AttemptFact,
	type ConsoleState,
	type DecisionFact,
	type LinkFact,
	type SessionFact,
	type StateKind,
	type TabletFact
} from './state';

const NOW = new Date('2026-03-10T18:00:00Z');
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);
/**
 * An identity attempt started that many minutes ago, with two minutes to answer its questions;
 * one that closed did so a minute in.
 */
const attempt = (
	minutes: number,
	outcome: AttemptFact['outcome'],
	over: Partial<AttemptFact> = {}
): AttemptFact => ({
	sessionId: 's',
	startedAt: ago(minutes),
	deadlineAt: ago(minutes - 2),
	finishedAt: outcome === 'pending' || outcome === 'answering' ? null : ago(minutes - 1),
	outcome,
	shown: true,
	...over
});
const later = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
const rules = {
	sessionIdleMinutes: 30,
	tabletIdleSeconds: 180,
	identityMaxAttempts: 2,
	identityWindowHours: 24
};
const ZONE = 'America/Chicago';

const link = (id: string, over: Partial<LinkFact> = {}): LinkFact => ({
	id,
	email: 'dana@example.com',
	createdAt: ago(120),
	expiresAt: later(7 * 24 * 60),
	revokedAt: null,
	usedAt: null,
	viaApi: false,
	...over
});

const session = (id: string, over: Partial<SessionFact> = {}): SessionFact => ({
	id,
	linkId: 'A',
	channel: 'link',
	createdAt: ago(20),
	lastSeenAt: ago(1),
	closedAt: null,
	consentAt: null,
	identityPassedAt: null,
	decisionId: null,
	declineId: null,
	...over
});

const TABLET = '0b5c0000-0000-4000-8000-00000000a001';
const tablet = (over: Partial<TabletFact> = {}): TabletFact => ({
	id: TABLET,
	lastSeenAt: ago(1),
	lockedAt: null,
	lockReason: null,
	endedAt: null,
	...over
});

const decision = (over: Partial<DecisionFact> = {}): DecisionFact => ({
	isAccepted: true,
	status: 'delivered',
	declineReason: null,
	attempts: 1,
	lastError: null,
	createdAt: ago(5),
	deliveredAt: ago(5),
	nextAttemptAt: ago(5),
	...over
});

const facts = (over: Partial<ApplicationFacts> = {}): ApplicationFacts => ({
	serviceStatus: 'Pending Signature',
	links: [],
	sessions: [],
	attempts: [],
	decision: null,
	declines: [],
	events: [],
	...over
});

const derive = (f: ApplicationFacts) => deriveState(f, rules, NOW);

/** Every state, with the facts that lead to it: the table the tests below go through. */
const CASES: [string, ApplicationFacts, Partial<ConsoleState> & { kind: StateKind }][] = [
	['nothing recorded', facts(), { kind: 'not_sent', at: null, link: null }],
	[
		'the only link revoked',
		facts({ links: [link('A', { revokedAt: ago(30) })] }),
		{ kind: 'not_sent', at: ago(30), link: null }
	],
	['a link out, not opened', facts({ links: [link('A')] }), { kind: 'link_sent', at: ago(120) }],
	[
		'a link past its expiry',
		facts({ links: [link('A', { expiresAt: ago(10) })] }),
		{ kind: 'link_expired', at: ago(10) }
	],
	[
		'opened, left at the terms long ago',
		facts({ links: [link('A')], sessions: [session('s', { lastSeenAt: ago(90) })] }),
		{ kind: 'opened', step: 'terms', at: ago(90) }
	],
	[
		'opened, stopped at the identity step',
		facts({
			links: [link('A')],
			sessions: [session('s', { consentAt: ago(95), lastSeenAt: ago(90) })]
		}),
		{ kind: 'opened', step: 'identity' }
	],
	[
		'in progress, reading the terms',
		facts({ links: [link('A')], sessions: [session('s')] }),
		{ kind: 'in_progress', step: 'terms', at: ago(1) }
	],
	[
		'in progress, at the identity questions',
		facts({ links: [link('A')], sessions: [session('s', { consentAt: ago(3) })] }),
		{ kind: 'in_progress', step: 'identity' }
	],
	[
		'in progress, signing',
		facts({
			links: [link('A')],
			sessions: [session('s', { consentAt: ago(3), identityPassedAt: ago(2) })]
		}),
		{ kind: 'in_progress', step: 'sign' }
	],
	[
		'identity passed, merchant gone',
		facts({
			links: [link('A')],
			sessions: [
				session('s', { consentAt: ago(200), identityPassedAt: ago(190), lastSeenAt: ago(180) })
			]
		}),
		{ kind: 'identity_passed', at: ago(190), deadEnd: null }
	],
	[
		'identity locked after two failures, merchant gone',
		facts({
			links: [link('A')],
			sessions: [session('s', { consentAt: ago(200), lastSeenAt: ago(100) })],
			attempts: [attempt(150, 'failed'), attempt(110, 'late')]
		}),
		// A full day from the try that reached the limit: the late one, at its deadline.
		{ kind: 'identity_locked', until: new Date(ago(108).getTime() + 24 * 3_600_000) }
	],
	[
		'identity locked while the merchant is still on the page',
		facts({
			links: [link('A')],
			sessions: [session('s', { consentAt: ago(10) })],
			attempts: [attempt(8, 'failed'), attempt(4, 'failed')]
		}),
		{ kind: 'identity_locked', step: 'identity' }
	],
	[
		'signed and delivered',
		facts({ links: [link('A', { usedAt: ago(5) })], decision: decision() }),
		{ kind: 'signed', at: ago(5), accepted: true, decided: true, link: null }
	],
	[
		'declined with a reason, delivered',
		facts({ decision: decision({ isAccepted: false, declineReason: 'Fees too high' }) }),
		{ kind: 'declined', reason: 'Fees too high', accepted: false }
	],
	[
		'decision recorded, first delivery not tried yet',
		facts({ decision: decision({ status: 'pending', attempts: 0, deliveredAt: null }) }),
		{ kind: 'delivering', reason: null, until: null }
	],
	[
		'decision recorded, delivery failing and retrying',
		facts({
			decision: decision({
				status: 'pending',
				attempts: 2,
				lastError: 'service unavailable',
				nextAttemptAt: later(1),
				deliveredAt: null
			})
		}),
		{ kind: 'delivering', reason: 'service unavailable', until: later(1) }
	],
	[
		'decision refused by the service for good',
		facts({
			decision: decision({ status: 'rejected', lastError: 'bad request', deliveredAt: null })
		}),
		{ kind: 'delivery_failed', reason: 'bad request' }
	],
	[
		'decided at the service, not through the portal',
		facts({ serviceStatus: 'Signed' }),
		{ kind: 'signed', at: null, decided: true }
	],
	[
		'declined at the service',
		facts({ serviceStatus: 'Declined' }),
		{ kind: 'declined', accepted: false, decided: true }
	],
	[
		'identity locked by a second try left with its questions on the screen, merchant still there',
		facts({
			links: [link('A')],
			sessions: [session('s', { consentAt: ago(10), lastSeenAt: ago(1) })],
			// Not closed yet (the merchant left the questions): its time ran out three minutes ago.
			attempts: [attempt(8, 'failed'), attempt(5, 'pending')]
		}),
		{
			kind: 'identity_locked',
			step: 'identity',
			until: new Date(ago(3).getTime() + 24 * 3_600_000)
		}
	],
	[
		'a try whose questions are still on the screen, in time, is not counted yet',
		facts({
			links: [link('A')],
			sessions: [session('s', { consentAt: ago(10), lastSeenAt: ago(0) })],
			attempts: [attempt(8, 'failed'), attempt(1, 'pending')]
		}),
		{ kind: 'in_progress', step: 'identity' }
	],
	[
		'a set asked for but never shown is no try, however old',
		facts({
			links: [link('A')],
			sessions: [session('s', { consentAt: ago(10), lastSeenAt: ago(1) })],
			attempts: [attempt(8, 'failed'), attempt(5, 'pending', { shown: false })]
		}),
		{ kind: 'in_progress', step: 'identity' }
	],
	[
		'answers still with the bureau are no lock: they may pass',
		facts({
			links: [link('A')],
			sessions: [session('s', { consentAt: ago(10), lastSeenAt: ago(0) })],
			attempts: [attempt(8, 'failed'), attempt(1, 'answering')]
		}),
		{ kind: 'in_progress', step: 'identity' }
	]
];

describe('the console state of an application', () => {
	it.each(CASES)('%s', (_name, f, expected) => {
		expect(derive(f)).toMatchObject(expected);
	});

	it('says a decision was made under names other than the owner’s, wherever it stands', () => {
		const otherSigner = { signer: 'Olga Petrova', owner: 'Dana Whitfield' };
		const by = (d: Partial<DecisionFact>) =>
			stateDetail(derive(facts({ decision: decision({ ...d, otherSigner }) })), ZONE);
		const signedBy =
			'Signed by Olga Petrova, not the owner the application names (Dana Whitfield).';
		expect(by({})).toMatch(
			new RegExp(`^Accepted and signed .*\\. ${signedBy.replace(/[.()]/g, '\\$&')}$`)
		);
		expect(by({ status: 'pending', attempts: 0, deliveredAt: null })).toContain(signedBy);
		expect(by({ status: 'rejected', lastError: 'bad request', deliveredAt: null })).toContain(
			signedBy
		);
		expect(by({ isAccepted: false, declineReason: 'Fees too high' })).toMatch(
			/^Declined .*\. Declined by Olga Petrova, not the owner the application names \(Dana Whitfield\)\. Reason: “Fees too high”$/
		);
		// The owner's own decision says nothing of the kind.
		expect(stateDetail(derive(facts({ decision: decision() })), ZONE)).not.toContain('owner');
	});

	it('never calls an in-person session paused once the newest one was declined and a link after it revoked', () => {
		const inPerson = (id: string, over: Partial<SessionFact>) =>
			session(id, { linkId: null, channel: 'in_person', consentAt: ago(38), ...over });
		// Declined on the tablet, a link made since (the merchant started on it), then revoked.
		const declinedThere = inPerson('s1', {
			createdAt: ago(40),
			lastSeenAt: ago(30),
			declineId: 'd1',
			tablet: tablet({ lockedAt: ago(30), lockReason: 'finished', endedAt: ago(29) })
		});
		const after = {
			links: [link('B', { createdAt: ago(20), revokedAt: ago(5) })],
			declines: [{ at: ago(30), reason: null }]
		};
		const onLink = session('s2', { linkId: 'B', createdAt: ago(15), lastSeenAt: ago(6) });
		// And with an older in-person session before it, taken back a day ago and left.
		const older = inPerson('s0', {
			createdAt: ago(24 * 60 + 10),
			lastSeenAt: ago(24 * 60),
			tablet: tablet({ lockedAt: ago(24 * 60), lockReason: 'returned' })
		});
		for (const sessions of [
			[declinedThere, onLink],
			[older, declinedThere, onLink]
		]) {
			const state = derive(facts({ ...after, sessions }));
			expect(state).toMatchObject({ kind: 'not_sent', at: ago(5) });
			expect(stateDetail(state, ZONE)).toMatch(/^The last link was revoked /);
		}
	});

	it('shows a decline the portal recorded before identity, until a newer link goes out', () => {
		const declinedEarly = facts({
			links: [link('A', { usedAt: ago(10) })],
			sessions: [session('s1', { declineId: 'd1', closedAt: null, lastSeenAt: ago(10) })],
			declines: [{ at: ago(10), reason: 'Found another processor' }]
		});
		expect(derive(declinedEarly)).toMatchObject({
			kind: 'declined',
			at: ago(10),
			reason: 'Found another processor',
			accepted: false,
			decided: false
		});
		// The rep reads that nothing reached the service, and what opens it again.
		expect(stateDetail(derive(declinedEarly), ZONE)).toMatch(
			/^Declined .*, before identity was confirmed: nothing went to the onboarding service\. Reason: “Found another processor”\. A new link or an in-person signing opens it again\.$/
		);
		// A reason that ends its own sentence gets no second full stop.
		const ownStop = { ...declinedEarly, declines: [{ at: ago(10), reason: 'Call me first.' }] };
		expect(stateDetail(derive(ownStop), ZONE)).toContain(
			'Reason: “Call me first.” A new link or an in-person signing opens it again.'
		);
		// The list shows a long reason's start (a reason may run to 1,000 characters).
		const long = { ...declinedEarly, declines: [{ at: ago(10), reason: `${'x'.repeat(200)} 🙂` }] };
		const short = stateDetail(derive(long), ZONE, { reasonLength: 160 });
		expect(short).toContain(`Reason: “${'x'.repeat(160)}…” A new link`);
		expect(stateDetail(derive(long), ZONE)).toContain(`${'x'.repeat(200)} 🙂`);
		expect(stateDetail(derive(ownStop), ZONE, { reasonLength: 160 })).toContain(
			'Reason: “Call me first.” A new'
		);
		// A page that shows the reason under its own heading leaves it out of the sentence.
		const apart = stateDetail(derive(declinedEarly), ZONE, { reason: false });
		expect(apart).not.toContain('Found another processor');
		expect(apart).toContain('A new link or an in-person signing opens it again.');
		expect(derive(declinedEarly).until).toBeNull();
		expect(identityLockedUntil(derive(declinedEarly))).toBeNull();
		// Declined after the tries ran out: what opens it again meets the lock, and the rep reads so.
		const lockedThenDeclined = {
			...declinedEarly,
			attempts: [attempt(30, 'failed'), attempt(20, 'failed')]
		};
		// A full day from the second failure's end.
		const until = new Date(ago(19).getTime() + 24 * 3_600_000);
		expect(derive(lockedThenDeclined)).toMatchObject({ kind: 'declined', until });
		expect(identityLockedUntil(derive(lockedThenDeclined))).toEqual(until);
		expect(stateDetail(derive(lockedThenDeclined), ZONE)).toMatch(
			/ A new link or an in-person signing opens it again, but the identity questions are locked until .+ after too many failed tries: the merchant can answer them only after then\.$/
		);
		const resent = {
			...declinedEarly,
			links: [...declinedEarly.links, link('B', { createdAt: ago(2) })]
		};
		expect(derive(resent)).toMatchObject({ kind: 'link_sent', at: ago(2) });
		// The merchant changed their mind and the rep hands them the tablet: in progress, then
		// paused once the rep takes it back.
		const inPerson = session('s2', {
			linkId: null,
			channel: 'in_person',
			createdAt: ago(3),
			lastSeenAt: ago(1),
			consentAt: ago(2),
			tablet: tablet()
		});
		const handed = { ...declinedEarly, sessions: [...declinedEarly.sessions, inPerson] };
		expect(derive(handed)).toMatchObject({ kind: 'in_progress', step: 'identity', inPerson: true });
		const paused = {
			...declinedEarly,
			sessions: [...declinedEarly.sessions, { ...inPerson, tablet: tablet({ lockedAt: ago(1) }) }]
		};
		expect(derive(paused)).toMatchObject({ kind: 'opened', step: 'identity', inPerson: true });
	});

	it('says the merchant is on it now only while they were seen in the last minutes', () => {
		const seen = (minutes: number) =>
			derive(facts({ sessions: [session('s1', { lastSeenAt: ago(minutes) })] }));
		expect(seen(2)).toMatchObject({ kind: 'in_progress', quiet: false });
		expect(stateDetail(seen(2), ZONE)).toMatch(/^The merchant is on it now \(last seen .*\)\.$/);
		// Still open (the idle limit is 30 minutes), but quiet for 12: they may have left.
		expect(seen(12)).toMatchObject({ kind: 'in_progress', quiet: true });
		const quiet = stateDetail(seen(12), ZONE);
		expect(quiet).not.toContain('on it now');
		expect(quiet).toMatch(
			/^Last seen .* CDT \(reading the agreement\): the merchant may have stepped away/
		);
		expect(stateLabel(seen(12))).toBe('In progress: reading the agreement');
	});

	it('says "identity questions" only while questions are on the merchant’s screen', () => {
		const at = (attempts: AttemptFact[]) =>
			derive(
				facts({
					links: [link('A')],
					sessions: [session('s', { consentAt: ago(3) })],
					attempts
				})
			);
		// At the step, questions not yet asked for, or the bureau never answered: none were shown.
		for (const none of [
			[],
			[attempt(1, 'pending', { deadlineAt: later(1), shown: false })],
			[attempt(1, 'pending', { deadlineAt: later(1), sessionId: 'another' })]
		]) {
			expect(stateLabel(at(none))).toBe('In progress: identity step');
		}
		const asked = at([attempt(1, 'pending', { deadlineAt: later(1) })]);
		expect(asked.questionsUntil).toEqual(later(1));
		expect(stateLabel(asked)).toBe('In progress: identity questions');
		expect(stateDetail(asked, ZONE)).toMatch(/^The merchant is on it now/);
		// A try whose time is up, with a try left: back at the step.
		expect(stateLabel(at([attempt(3, 'pending')]))).toBe('In progress: identity step');
	});

	it('says why a decision was not delivered in the rep’s words, not the error’s', () => {
		const failed = (lastError: string, status: 'rejected' | 'pending') =>
			stateDetail(
				derive(
					facts({
						decision: decision({
							status,
							attempts: 1,
							lastError,
							nextAttemptAt: later(1),
							deliveredAt: null
						})
					})
				),
				ZONE
			);
		const refused = new OnboardingError({
			kind: 'http',
			operation: 'postMerchantDecision',
			status: 400
		}).message;
		const detail = failed(refused, 'rejected');
		expect(detail).toBe(
			'The signature was not delivered: the onboarding service answered HTTP 400 (the request was rejected as invalid). The portal will not try again; it and its evidence are kept here. Contact the onboarding service to have it recorded.'
		);
		expect(detail).not.toContain('postMerchantDecision');
		const slow = new OnboardingError({ kind: 'timeout', operation: 'postMerchantDecision' });
		expect(failed(slow.message, 'pending')).toMatch(
			/^The signature is recorded; sending it failed \(the onboarding service did not answer in time\), next try .*\.$/
		);
	});

	it('has a case above for every state', () => {
		const covered = new Set(CASES.map(([, , e]) => e.kind));
		expect(STATE_KINDS.filter((k) => !covered.has(k))).toEqual([]);
	});

	it('gives every state a label and a sentence, times with the zone named', () => {
		for (const [name, f] of CASES) {
			const s = derive(f);
			expect(stateLabel(s), name).not.toBe('');
			const detail = stateDetail(s, ZONE);
			expect(detail, name).toMatch(/\.|”$/);
			if (/\d:\d\d/.test(detail)) expect(detail, name).toMatch(/C[SD]T/);
		}
		expect(stateLabel(derive(facts({ links: [link('A')], sessions: [session('s')] })))).toBe(
			'In progress: reading the agreement'
		);
		expect(stateDetail(derive(CASES[13]![1]), ZONE)).toContain('Reason: “Fees too high”');
	});

	it('says a link was emailed only once its email has gone out, and flags one that failed', () => {
		const withMail = (mail: LinkFact['mail']) => derive(facts({ links: [link('A', { mail })] }));

		const sent = withMail({ status: 'sent', sentAt: ago(119), problem: null, nextAt: null });
		expect(stateLabel(sent)).toBe('Link sent');
		expect(stateDetail(sent, ZONE)).toMatch(
			/^Emailed to dana@example\.com Mar 10, 2026, 11:01 AM CDT; valid until .* CDT\.$/
		);
		expect(attention(sent, ZONE)).toBeNull();

		const waiting = withMail({ status: 'pending', sentAt: null, problem: null, nextAt: ago(119) });
		expect(stateLabel(waiting)).toBe('Link sent');
		// A link nobody emailed (to copy, by the operator API, a demo) was made, not sent.
		expect(stateLabel(derive(facts({ links: [link('A', { email: null })] })))).toBe('Link made');
		expect(stateDetail(waiting, ZONE)).toMatch(
			/^The email to dana@example\.com is waiting to go out; the link is valid until .*\.$/
		);

		const delayed = withMail({
			status: 'pending',
			sentAt: null,
			problem: 'the mail server could not be reached',
			nextAt: later(10)
		});
		expect(stateLabel(delayed)).toBe('Link email delayed');
		expect(stateDetail(delayed, ZONE)).toMatch(
			/^The email to dana@example\.com has not gone out yet \(the mail server could not be reached\); next try Mar 10, 2026, 1:10 PM CDT\. The link is valid until .*\.$/
		);
		expect(attention(delayed, ZONE)).toBeNull();

		const failed = withMail({
			status: 'failed',
			sentAt: null,
			problem: 'the address was refused',
			nextAt: null
		});
		expect(stateLabel(failed)).toBe('Link email failed');
		expect(stateDetail(failed, ZONE)).toBe(
			'The email to dana@example.com could not be sent (the address was refused).'
		);
		expect(attention(failed, ZONE)).toMatch(
			/^The merchant has no link: its email to dana@example\.com could not be sent\./
		);
		// Opened all the same (the merchant had it some other way): the failure no longer matters.
		const opened = derive(
			facts({
				links: [link('A', { mail: failed.link!.mail })],
				sessions: [session('s', { lastSeenAt: ago(60) })]
			})
		);
		expect(opened.kind).toBe('opened');
		expect(attention(opened, ZONE)).toBeNull();

		// Not emailed: made by a rep to copy, or by the operator's systems, which no rep has seen.
		const copied = derive(facts({ links: [link('A', { email: null })] }));
		expect(stateDetail(copied, ZONE)).toMatch(/^A link to copy and hand over; valid until /);
		const api = derive(facts({ links: [link('A', { email: null, viaApi: true })] }));
		expect(stateDetail(api, ZONE)).toMatch(
			/^A link made through the operator API, not emailed; valid until .* CDT\.$/
		);
	});

	it('forgets a session that went idle, was closed, or whose link was replaced', () => {
		const idle = facts({ links: [link('A')], sessions: [session('s', { lastSeenAt: ago(31) })] });
		expect(derive(idle).kind).toBe('opened');
		const closed = facts({ links: [link('A')], sessions: [session('s', { closedAt: ago(1) })] });
		expect(derive(closed).kind).toBe('opened');
		const replaced = facts({
			links: [link('A', { revokedAt: ago(2) }), link('B', { createdAt: ago(2) })],
			sessions: [session('s')]
		});
		expect(derive(replaced)).toMatchObject({ kind: 'link_sent', link: { id: 'B' } });
	});

	it('says how many identity tries are left once one ended without a pass, wherever the merchant is', () => {
		const identity = (over: Partial<SessionFact>, attempts: AttemptFact[]) =>
			facts({
				links: [link('A')],
				sessions: [session('s', { consentAt: ago(5), ...over })],
				attempts
			});
		const LEFT =
			/A try at the identity questions ended without a pass: 1 of 2 tries is left\. One more that ends without a pass locks the questions\.$/;
		// On the merchant's own device, now, a while ago, or left: back at the step, one try used.
		for (const over of [{ lastSeenAt: ago(1) }, { lastSeenAt: ago(10) }, { closedAt: ago(1) }]) {
			for (const lost of [attempt(3, 'failed'), attempt(5, 'late'), attempt(5, 'pending')]) {
				const state = derive(identity(over, [lost]));
				expect(state.triesLeft, JSON.stringify(over)).toEqual({ left: 1, max: 2 });
				expect(stateDetail(state, ZONE)).toMatch(LEFT);
			}
		}
		// Not while the questions are on the screen (the try is not over), nor before any try.
		const asking = derive(identity({}, [attempt(1, 'pending', { deadlineAt: later(1) })]));
		expect(asking.triesLeft ?? null).toBeNull();
		expect(stateDetail(asking, ZONE)).not.toContain('without a pass');
		expect(derive(identity({}, [])).triesLeft ?? null).toBeNull();
		// Nor once identity has passed (elsewhere): no more questions are asked.
		const passed = identity({ linkId: 'B' }, [attempt(30, 'failed')]);
		passed.links.push(link('B', { createdAt: ago(10) }));
		passed.links[0]!.revokedAt = ago(10);
		passed.sessions.push(
			session('p', {
				linkId: 'A',
				consentAt: ago(40),
				identityPassedAt: ago(35),
				closedAt: ago(11)
			})
		);
		const after = derive(passed);
		expect(after.kind).toBe('in_progress');
		expect(after.triesLeft ?? null).toBeNull();
		expect(stateDetail(after, ZONE)).not.toContain('without a pass');
		// Two of three left: said without the warning.
		const three = deriveState(
			identity({}, [attempt(3, 'failed')]),
			{ ...rules, identityMaxAttempts: 3 },
			NOW
		);
		expect(stateDetail(three, ZONE)).toMatch(/ended without a pass: 2 of 3 tries are left\.$/);
	});

	it('counts a tablet in the merchant’s hands only until it is taken back or left idle', () => {
		const inPerson = (t: TabletFact | null) =>
			facts({
				sessions: [
					session('s', {
						linkId: null,
						channel: 'in_person',
						lastSeenAt: ago(4),
						consentAt: ago(5),
						tablet: t
					})
				]
			});
		const at = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);
		// Heard from 200 s ago, within the 180 s limit and the 30 s the page's last touch can be
		// ahead of what the server heard: still in the merchant's hands.
		const held = derive(inPerson(tablet({ lastSeenAt: at(200) })));
		// The page names the hand-over it shows in hands, which "Hand to merchant" posts back.
		expect(held).toMatchObject({ kind: 'in_progress', inPerson: true, tablet: TABLET });
		expect(held.tabletIdle).toBe(false);
		expect(stateDetail(held, ZONE)).toContain('The merchant has the tablet now');
		// Untouched past the limit: the tablet has locked itself, though the server has not heard.
		const left = derive(inPerson(tablet({ lastSeenAt: at(220) })));
		expect(left).toMatchObject({ kind: 'opened', step: 'identity', inPerson: true, at: at(220) });
		expect(left.tabletIdle).toBe(true);
		expect(stateDetail(left, ZONE)).toMatch(/^The tablet was left idle at the identity step/);
		const lockedIdle = derive(inPerson(tablet({ lockedAt: ago(1), lockReason: 'idle' })));
		expect(lockedIdle).toMatchObject({ kind: 'opened', tabletIdle: true });
		// Taken back ("Return to rep"), then unlocked: paused, not idle, whatever the time.
		for (const t of [
			tablet({ lockedAt: ago(1), lockReason: 'returned' }),
			tablet({ lastSeenAt: at(400), lockedAt: ago(1), lockReason: 'returned', endedAt: ago(0) })
		]) {
			const back = derive(inPerson(t));
			expect(back).toMatchObject({ kind: 'opened', inPerson: true, tabletIdle: false });
			expect(stateDetail(back, ZONE)).toMatch(/^Taken back from the merchant at the identity step/);
		}
		// Taken back, or left idle, with questions on the tablet: their time runs on, and says so.
		const asked = (t: TabletFact, a: AttemptFact[]) => ({ ...inPerson(t), attempts: a });
		const running = attempt(1, 'pending', { deadlineAt: later(1) });
		const returned = tablet({ lockedAt: ago(1), lockReason: 'returned' });
		for (const t of [returned, tablet({ lockedAt: ago(1), lockReason: 'idle' })]) {
			const paused = derive(asked(t, [running]));
			expect(paused.questionsUntil).toEqual(later(1));
			expect(stateDetail(paused, ZONE)).toMatch(
				/Its identity questions are still open and their time runs on: unless the merchant answers them by Mar \d+, 2026, \d+:\d\d:\d\d [AP]M [A-Z]+, that try counts without a pass\.$/
			);
		}
		// Their time up (or answered wrong), the rep is told the try counted, and what is left.
		for (const lost of [attempt(3, 'pending'), attempt(3, 'late'), attempt(2, 'failed')]) {
			const after = derive(asked(returned, [lost]));
			expect(after.triesLeft).toEqual({ left: 1, max: 2 });
			expect(stateDetail(after, ZONE)).toMatch(
				/Hand the tablet over again to go on\. A try at the identity questions ended without a pass: 1 of 2 tries is left\. One more that ends without a pass locks the questions\.$/
			);
		}
		// Not when they are answered, their time is up, or they are another session's.
		for (const a of [
			attempt(1, 'failed'),
			attempt(3, 'pending'),
			attempt(1, 'pending', { deadlineAt: later(1), sessionId: 'other' }),
			attempt(1, 'pending', { deadlineAt: later(1), shown: false })
		]) {
			const paused = derive(asked(returned, [a]));
			expect(paused.questionsUntil ?? null).toBeNull();
			expect(stateDetail(paused, ZONE)).not.toContain('still open');
		}
		// Never handed over (or its hand-over is gone): not in anyone's hands.
		expect(derive(inPerson(null))).toMatchObject({ kind: 'opened', tabletIdle: false });
	});

	it('counts identity failures only inside the window, and a lock lasts a full one', () => {
		const old = facts({
			links: [link('A')],
			attempts: [attempt(26 * 60, 'failed'), attempt(60, 'failed')]
		});
		expect(derive(old).kind).toBe('link_sent');
		// Twenty hours apart: locked a day from the second, not a day from the first (four hours
		// ago, when only the second is left in the window).
		const apart = facts({
			links: [link('A')],
			attempts: [attempt(28 * 60, 'failed'), attempt(8 * 60, 'failed')]
		});
		expect(derive(apart)).toMatchObject({
			kind: 'identity_locked',
			until: new Date(ago(8 * 60 - 1).getTime() + 24 * 3_600_000)
		});
		const byService = facts({
			links: [link('A')],
			events: [{ type: 'identity.locked', at: ago(60), byService: true }]
		});
		expect(derive(byService)).toMatchObject({
			kind: 'identity_locked',
			until: new Date(ago(60).getTime() + 24 * 3_600_000)
		});
	});

	describe('the known dead end (identity passed on link A, the merchant lost it)', () => {
		const passedOnA = session('s', {
			linkId: 'A',
			consentAt: ago(300),
			identityPassedAt: ago(290),
			lastSeenAt: ago(280)
		});
		const revokedA = link('A', { revokedAt: ago(60), email: 'dana@example.com' });
		/** Identity passed in person, `minutes` ago, the tablet then taken back. */
		const passedInPerson = (minutes: number) =>
			session('t', {
				linkId: null,
				channel: 'in_person',
				consentAt: ago(minutes + 10),
				identityPassedAt: ago(minutes),
				lastSeenAt: ago(minutes - 10)
			});

		it('is no dead end when link B goes to the same address, whatever its case', () => {
			const s = derive(
				facts({
					links: [revokedA, link('B', { createdAt: ago(60), email: ' Dana@Example.com' })],
					sessions: [passedOnA]
				})
			);
			expect(s).toMatchObject({ kind: 'identity_passed', deadEnd: null });
			expect(s.identityPassed).toMatchObject({ email: 'dana@example.com', linkId: 'A' });
			expect(attention(s, ZONE)).toBeNull();
		});

		it('is one when link B goes elsewhere, and the console says what to do', () => {
			const s = derive(
				facts({
					links: [revokedA, link('B', { createdAt: ago(60), email: 'other@example.com' })],
					sessions: [passedOnA]
				})
			);
			expect(s).toMatchObject({ kind: 'identity_passed', deadEnd: { refusedAt: null } });
			const note = attention(s, ZONE)!;
			expect(note).toContain('the link sent to dana@example.com');
			expect(note).toContain('to other@example.com');
			expect(note).toContain('Send a new link to dana@example.com');
		});

		it('tells when the merchant was turned away', () => {
			const s = derive(
				facts({
					links: [revokedA, link('B', { createdAt: ago(60), email: null })],
					sessions: [passedOnA],
					events: [{ type: 'identity.refused', at: ago(10), byService: false }]
				})
			);
			expect(s.deadEnd).toEqual({ refusedAt: ago(10) });
			expect(attention(s, ZONE)).toMatch(/turned away Mar 10, 2026, 12:50 PM CDT/);
		});

		it('without a usable link, points to a link to the address identity passed on', () => {
			const s = derive(facts({ links: [revokedA], sessions: [passedOnA] }));
			expect(s).toMatchObject({ kind: 'identity_passed', deadEnd: null, link: null });
			expect(attention(s, ZONE)).toContain('Send a new link to dana@example.com');
		});

		it('after a pass on a copied link, only in person is left', () => {
			const s = derive(
				facts({
					links: [link('A', { revokedAt: ago(60), email: null }), link('B', { email: null })],
					sessions: [passedOnA]
				})
			);
			expect(s.deadEnd).not.toBeNull();
			expect(attention(s, ZONE)).toContain('in person');
		});

		it('after a pass in person, taken back at signing: hand the tablet over again, not a copied link', () => {
			const inPerson = passedInPerson(20);
			const s = derive(facts({ sessions: [inPerson] }));
			const said = attention(s, ZONE) ?? '';
			expect(said).toBe(
				'Identity was confirmed in person, with you. Hand the tablet over again: the merchant picks up where they left off, without the questions.'
			);
			// Its session still open, the next hand-over picks it up (the In person card says so).
			expect(s).toMatchObject({ kind: 'identity_passed', inPerson: true });
		});

		it('after a pass in person, counts the session paused only while a hand-over would pick it up', () => {
			// Idle past the limit (30 minutes, last seen 40 ago), closed, or on a link: a new session.
			const idle = session('t', { ...passedInPerson(50), lastSeenAt: ago(40) });
			const closed = { ...passedInPerson(20), closedAt: ago(5) };
			for (const sessions of [[idle], [closed], [passedOnA]]) {
				expect(derive(facts({ sessions }))).toMatchObject({
					kind: 'identity_passed',
					inPerson: false
				});
			}
			// Passed on a link, then handed over and taken back at the agreement: that session is
			// picked up where it stopped (the card says so, not "at signing").
			const atTerms = session('t', { linkId: null, channel: 'in_person', lastSeenAt: ago(3) });
			expect(derive(facts({ sessions: [passedOnA, atTerms] }))).toMatchObject({
				kind: 'identity_passed',
				inPerson: true
			});
			// As handover.ts judges it: the newest in-person session not closed, open or not.
			const older = session('o', { ...passedInPerson(20), createdAt: ago(60) });
			const newer = session('n', { ...idle, createdAt: ago(50) });
			expect(derive(facts({ sessions: [older, newer] }))).toMatchObject({ inPerson: false });
			expect(derive(facts({ sessions: [older, { ...newer, closedAt: ago(45) }] }))).toMatchObject({
				inPerson: true
			});
		});

		it('after a pass in person and a link no pass can ride on, says where identity passed once', () => {
			const inPerson = passedInPerson(80);
			const s = derive(
				facts({ links: [link('B', { email: 'dana@example.com' })], sessions: [inPerson] })
			);
			expect(s.deadEnd).not.toBeNull();
			expect(attention(s, ZONE)).toBe(
				'Identity was confirmed in person. The current link (to dana@example.com) can’t carry it over, so the merchant will be sent to you. Hand the tablet over again: after agreeing to the terms again, the merchant skips the questions and goes on to signing.'
			);
		});

		it('after a pass on an emailed link, then one in person: a link to that address still carries', () => {
			const inPerson = passedInPerson(20);
			const s = derive(facts({ links: [revokedA], sessions: [passedOnA, inPerson] }));
			// The last pass is the one in person; the address is the emailed one's.
			expect(s.identityPassed).toMatchObject({
				linkId: null,
				email: null,
				carriesTo: 'dana@example.com'
			});
			expect(attention(s, ZONE)).toBe(
				'Identity was confirmed in person, with you. Hand the tablet over again: the merchant picks up where they left off, without the questions. Or send a new link to dana@example.com, where identity was confirmed before: a link to that address carries it over.'
			);
			// Only in person: no address carries it.
			const alone = derive(facts({ sessions: [inPerson] }));
			expect(alone.identityPassed).toMatchObject({ carriesTo: null });
		});

		it('after a pass on a link carried into a hand-over, says where the questions were answered', () => {
			// Passed on link A; a hand-over later carried that pass into its session.
			const carried = { ...passedInPerson(20), carried: true };
			const s = derive(facts({ links: [revokedA], sessions: [passedOnA, carried] }));
			expect(s.identityPassed).toMatchObject({
				linkId: 'A',
				email: 'dana@example.com',
				at: ago(290)
			});
			expect(attention(s, ZONE)).toBe(
				'Send a new link to dana@example.com: a link to that address carries the confirmed identity over.'
			);
		});

		it('is over once a decision is recorded', () => {
			const s = derive(
				facts({
					links: [revokedA, link('B', { email: 'other@example.com', usedAt: ago(1) })],
					sessions: [passedOnA],
					decision: decision()
				})
			);
			expect(s).toMatchObject({ kind: 'signed', deadEnd: null });
			expect(attention(s, ZONE)).toBeNull();
		});
	});
});
