import Bowser from 'bowser';
import type { AuditEvent } from '$lib/server/audit/audit';
import { carriedFrom, durationWords, plural, typeLabel } from '$lib/server/audit/labels';
import { formatTime } from '$lib/time';
import type { EvidenceFacts } from './facts';

/** "Safari 17.0 on iOS 17.0 (Apple iPhone)": the user agent as a person names a device. */
export function describeDevice(userAgent: string | null): string {
	if (!userAgent) return 'not recorded';
	const { browser, os, platform } = Bowser.parse(userAgent);
	const name = (n?: string, v?: string) => (n ? (v ? `${n} ${v}` : n) : '');
	const app = name(browser.name, browser.version?.split('.').slice(0, 2).join('.'));
	const system = name(os.name, os.versionName ?? os.version);
	const hardware = [platform.vendor, platform.model].filter(Boolean).join(' ') || platform.type;
	const parts = [app || 'Unknown browser', system && `on ${system}`].filter(Boolean).join(' ');
	return hardware ? `${parts} (${hardware})` : parts;
}

/** `2026-11-03 16:42:05 UTC` */
/** The note beside a signer who typed other names than the owner's (certificate, signed copy). */
export function ownerNote(ownerName: string): string {
	return `${ownerName}, as the application names them. The identity questions were about the owner; the signer typed other names.`;
}

export function utcTime(at: Date): string {
	return at.toISOString().slice(0, 19).replace('T', ' ') + ' UTC';
}

/** `Nov 3, 2026, 10:42:05 AM CST`, in the office's zone with the zone's short name. */
export function officeTime(at: Date, timeZone: string): string {
	return formatTime(at, timeZone, 'short', { seconds: true });
}

const text = (v: unknown) => (typeof v === 'string' ? v : null);

/** "Sam Ortiz (rep 31)", as an in-person event's data names the rep; "The rep" if it does not. */
function repNamed(name: unknown, repNo: unknown): string {
	return `${text(name) ?? 'The rep'}${repNo != null ? ` (rep ${String(repNo)})` : ''}`;
}

/** What a timeline row says about an event, in plain words and without personal data. */
export function eventSentence(e: AuditEvent): string {
	const d = e.data;
	switch (e.type) {
		case 'link.created':
			return d.emailedTo
				? 'A signing link was created to be emailed.'
				: 'A signing link was created.';
		case 'link.sent':
			return `The signing link was emailed to ${text(d.to) ?? 'the signer'}.`;
		case 'link.reminded':
			return `A reminder to sign was emailed to ${text(d.to) ?? 'the signer'}.`;
		case 'mail.failed':
			return `An email to the signer could not be delivered (${text(d.reason) ?? 'no reason given'}).`;
		case 'link.revoked':
			return d.reason === 'replaced'
				? 'A signing link was replaced by a newer one, and no longer opens.'
				: d.reason === 'in_person'
					? d.expired === true
						? 'The signing link, which had already expired, was ended when the rep handed their device over for signing in person.'
						: 'The signing link was ended when the rep handed their device over for signing in person, and no longer opens.'
					: `${e.rep ?? 'The rep'} revoked the signing link, and it no longer opens.`;
		case 'link.opened':
			return 'The signing link was opened.';
		case 'session.started': {
			const p = d.inPerson as Record<string, unknown> | undefined;
			if (p && typeof p === 'object') {
				const id = p.photoIdChecked === true ? ' after checking the signer’s photo ID' : '';
				return `${repNamed(p.repName, p.repNo)} started an in-person signing on their device${id}.`;
			}
			return 'A signing session started from the link.';
		}
		case 'session.handed_over': {
			const p = (d.inPerson ?? {}) as Record<string, unknown>;
			const id = p.photoIdChecked === true ? ', after checking the signer’s photo ID' : '';
			return `${repNamed(p.repName, p.repNo)} handed their device to the signer again to go on${id}.`;
		}
		case 'device.locked':
			return d.reason === 'returned'
				? // Pressed by whoever held the device: the signer handing it back, or the rep taking it.
					'“Return to rep” was pressed on the device, which locked until the rep’s password.'
				: d.reason === 'finished'
					? 'The device locked behind the decision’s confirmation, until the rep’s password.'
					: d.reason === 'moved'
						? 'The device locked when the signing was handed over on another device, to go on there; it stayed locked until the rep’s password.'
						: `The device locked itself after ${typeof d.idleSeconds === 'number' ? `${durationWords(d.idleSeconds)} without a touch` : 'the signing session went idle'}, until the rep’s password.`;
		case 'device.unlocked':
			return `${repNamed(d.repName, d.repNo)} unlocked their device with their password.`;
		case 'device.unlock_refused':
			// Typed by whoever held the device: the trail can't say who.
			return `A wrong password was typed at the device’s lock screen${d.left === 0 ? ', and unlocking paused for a while' : ''}.`;
		case 'terms.shown': {
			const sections = Array.isArray(d.sections) ? (d.sections as { title?: string }[]) : [];
			const titles = sections.map((s) => s.title).filter(Boolean);
			return `The acceptance terms were shown: ${plural(sections.length, 'section')}${titles.length ? ` (${titles.join(', ')})` : ''}.`;
		}
		case 'consent.given':
			return 'The signer agreed to use electronic records and signatures.';
		case 'identity.started':
			return `The credit bureau’s identity questions were shown: ${plural(Number(d.questions) || 0, 'question')}, ${Number(d.timeLimitSeconds) || 0} seconds allowed (set ${text(d.questionSetId) ?? 'unknown'}).`;
		case 'identity.passed': {
			const from = carriedFrom(d.by);
			return from
				? `Identity was already verified: carried over from ${from}.`
				: 'The answers were verified: identity confirmed.';
		}
		case 'identity.failed': {
			const reason = text(d.reason);
			if (reason === 'signing in person')
				return 'The questions were still open on the signing link when the rep handed their device over: no answers were sent, and they count as a try.';
			if (reason === 'link replaced' || reason === 'link revoked')
				return `The questions were still open when the link was ${reason === 'link replaced' ? 'replaced' : 'revoked'}: no answers were sent, and they count as a try.`;
			return `The answers were not verified${reason && reason !== 'failed' ? ` (${reason})` : ''}.`;
		}
		case 'identity.locked':
			return 'Identity questions were locked after too many tries.';
		case 'identity.unavailable':
			return 'The credit bureau did not answer; no try was used.';
		case 'identity.refused':
			return 'Identity questions were refused: identity was verified in another session.';
		case 'decision.accepted':
			return `The signer accepted and signed${text(d.signature) ? `, typing “${text(d.signature)}” as their signature` : ''}.`;
		case 'decision.declined':
			return `The signer declined${d.declineReasonGiven ? ', giving a reason for the rep' : ''}.`;
		case 'decline.recorded':
			return `The signer declined before confirming their identity${d.reason ? ', giving a reason for the rep' : ''}; the portal recorded it and ended the link.`;
		case 'decision.delivered':
			return d.merchantDecisionId
				? `The decision was delivered to the onboarding service (decision number ${String(d.merchantDecisionId)}).`
				: 'The decision was delivered to the onboarding service.';
		case 'decision.delivery_failed':
			return 'The onboarding service could not be reached; delivery was retried later.';
		case 'decision.rejected':
			return `The onboarding service refused the decision (status ${String(d.status ?? 'unknown')}).`;
		default:
			return `${typeLabel(e.type)}.`;
	}
}

/** How the signing reached the signer, for the certificate and the signed copy alike. */
export function channelText(f: EvidenceFacts): string {
	if (f.channel.kind === 'link') {
		if (f.channel.emailedTo) return `Emailed signing link, sent to ${f.channel.emailedTo}`;
		// Not emailed by the portal: said with who made it, so that a reviewer does not read a gap.
		const by = {
			rep: 'Signing link a rep made to pass on',
			operator: 'Signing link from the operator API',
			demo: 'Signing link from the sandbox’s demo',
			none: 'Signing link'
		}[f.channel.madeBy ?? 'none'];
		return `${by} (not emailed by the portal)`;
	}
	const p = f.channel.inPerson;
	const rep = [p.repName ?? 'a rep', p.repNo ? `rep no. ${p.repNo}` : null].filter(Boolean);
	return `In person, on the rep’s device, with ${rep.join(', ')}`;
}

/** In person, the rep's attestation of the signer's photo ID; none for a link. */
export function photoIdText(f: EvidenceFacts): string | null {
	if (f.channel.kind !== 'in_person') return null;
	const p = f.channel.inPerson;
	if (!p.photoIdChecked) return 'Not attested by the rep';
	// The rep's notes, as far as they wrote them: the ID's type, its last characters, or neither.
	const kind = p.idType ?? (p.idLast4 ? 'ID' : null);
	const checked = kind
		? `Checked by the rep: ${kind}${p.idLast4 ? ` ending ${p.idLast4}` : ''}`
		: 'Checked by the rep';
	// Handed over more than once, it was checked each time: this is the last (the key steps say
	// when), under which the signer went on.
	return f.handedOverAgain?.length ? `${checked}, at the last hand-over` : checked;
}
