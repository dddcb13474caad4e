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

export function shownTime(date: Date, timeZone: string): ShownTime;
export function shownTime(date: Date | null, timeZone: string): ShownTime | null;
export function shownTime(date: Date | null, timeZone: string): ShownTime | null {
	return date ? { iso: date.toISOString(), text: officeTime(date, timeZone) } : null;
}
