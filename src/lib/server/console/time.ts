import { formatTime } from '$lib/time';

/**
 * A time as people at the office read it, with the zone named ("Mar 4, 2026, 2:05 PM CST"), so a
 * time is never ambiguous, whoever reads it and from wherever.
 */
export function officeTime(date: Date, timeZone: string): string {
	return formatTime(date, timeZone, 'short');
}

/** A time shown on a page: the text above, and the instant for `<time datetime>`. */
export interface ShownTime {
	iso: string;
	text: string;
}

/** `seconds`: to the second, for a deadline the page gives elsewhere to the second too. */
export function shownTime(date: Date, timeZone: string, opts?: { seconds?: boolean }): ShownTime;
export function shownTime(
	date: Date | null,
	timeZone: string,
	opts?: { seconds?: boolean }
): ShownTime | null;
export function shownTime(
	date: Date | null,
	timeZone: string,
	opts: { seconds?: boolean } = {}
): ShownTime | null {
	return date ? { iso: date.toISOString(), text: formatTime(date, timeZone, 'short', opts) } : null;
}

/** The service's CreatedDate (MM/DD/YYYY) as year, month and day; null for anything else. */
export function serviceDateParts(created: string): [number, number, number] | null {
	const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(created.trim());
	if (!m) return null;
	const [month, day, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
	return month >= 1 && month <= 12 && day >= 1 && day <= 31 ? [year, month, day] : null;
}

const DAY = new Intl.DateTimeFormat('en-US', {
	month: 'short',
	day: 'numeric',
	year: 'numeric',
	timeZone: 'UTC'
});

/**
 * The service's CreatedDate as the rep pages write dates ("Nov 21, 2026"): a calendar day, with
 * no zone to convert. Anything else is shown as the service gave it.
 */
export function serviceDate(created: string): string {
	const parts = serviceDateParts(created);
	return parts ? DAY.format(Date.UTC(parts[0], parts[1] - 1, parts[2])) : created;
}
