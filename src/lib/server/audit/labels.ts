import type { Channel } from '$lib/server/db/schema';
import { capital } from '$lib/text';

/** Event types in the words a reader of the certificate (a merchant, a lawyer) would use. */
const TYPE_LABELS: Record<string, string> = {
	'link.created': 'Signing link created',
	'link.sent': 'Signing link emailed',
	'link.reminded': 'Reminder emailed',
	'mail.failed': 'Email could not be delivered',
	'link.revoked': 'Signing link revoked',
	'link.opened': 'Signing link opened',
	'session.started': 'Signing session started',
	'session.handed_over': 'Rep’s device handed to the signer again',
	'device.locked': 'Rep’s device locked',
	'device.unlocked': 'Rep’s device unlocked by the rep',
	'device.unlock_refused': 'Wrong password at the rep’s device’s lock screen',
	'terms.shown': 'Acceptance terms shown',
	'consent.given': 'Consent to electronic records given',
	'identity.started': 'Identity questions presented',
	'identity.passed': 'Identity verified',
	'identity.failed': 'Identity not verified',
	'identity.locked': 'Identity questions locked for 24 hours',
	'identity.unavailable': 'Identity service unavailable',
	'decision.accepted': 'Application accepted and signed',
	'decision.declined': 'Application declined',
	'decline.recorded': 'Declined before identity was confirmed',
	'decision.delivered': 'Decision delivered to the onboarding service',
	'decision.delivery_failed': 'Decision delivery failed, will retry',
	'decision.rejected': 'Decision refused by the onboarding service'
};

/** A known type's label, else the type itself made readable ("tablet.handed_back" → "Tablet: handed back"). */
export function typeLabel(type: string): string {
	const known = TYPE_LABELS[type];
	if (known) return known;
	const [head = '', ...rest] = type.split('.').map((part) => part.replace(/[_-]+/g, ' ').trim());
	const words = rest.length > 0 ? `${head}: ${rest.join(' ')}` : head;
	return capital(words);
}

/**
 * Where an identity pass was carried over from, for "carried over from …": an `identity.passed`
 * event's `by` (identity/attempts.ts); null for a pass on the session's own answers.
 */
export function carriedFrom(by: unknown): string | null {
	if (typeof by !== 'string' || by === '') return null;
	switch (by) {
		case 'earlier session on this link':
			return 'an earlier session on the same link';
		case 'earlier link to this email':
			return 'an earlier link sent to the same email address';
		case 'earlier pass, photo ID checked in person':
			return 'an earlier pass, the rep having checked the signer’s photo ID in person';
		default:
			return 'an earlier session';
	}
}

/** "1 section", "5 questions". */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "3 minutes", "90 seconds", "1 minute": a limit such as the tablet's idle time, exactly. */
export function durationWords(seconds: number): string {
	return seconds > 0 && seconds % 60 === 0
		? plural(seconds / 60, 'minute')
		: plural(seconds, 'second');
}

export function channelLabel(channel: Channel | null): string {
	if (channel === 'link') return 'Signing link';
	if (channel === 'in_person') return 'In person, on the rep’s device';
	return '';
}

/** `2025-03-04 05:06:07.089 UTC`: unambiguous, and the time zone is in the text. */
export function utc(date: Date): string {
	return date.toISOString().replace('T', ' ').replace('Z', ' UTC');
}

/**
 * An event's data as `key: value` lines, nested members by path
 * (`sections[0].sha256: …`), so every hash of what was shown is on its own line.
 */
export function dataLines(value: unknown, path = ''): string[] {
	if (Array.isArray(value)) {
		if (value.length === 0) return [`${path}: (none)`];
		return value.flatMap((item, i) => dataLines(item, `${path}[${i}]`));
	}
	if (value !== null && typeof value === 'object') {
		const entries = Object.entries(value);
		if (entries.length === 0) return path ? [`${path}: (none)`] : [];
		return entries.flatMap(([key, item]) => dataLines(item, path ? `${path}.${key}` : key));
	}
	const text =
		value === null ? 'none' : typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value);
	return [`${path}: ${text}`];
}
