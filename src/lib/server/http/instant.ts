import * as v from 'valibot';

/** What a caller is told of a moment it wrote wrong: the operator API's and /dev/reminders'. */
export const ISO_INSTANT_MESSAGE =
	'must be an ISO 8601 date-time with its time zone, such as 2026-12-01T17:00:00Z';

/**
 * A moment written in ISO 8601 (what valibot's `isoTimestamp` takes), read as a Date. That pattern
 * takes forms JavaScript's Date cannot read — an offset in hours alone (`+05`), a space before
 * the offset — and days a month does not have (`2026-11-31`), which Date moves on into the next
 * month. The first became an Invalid Date that failed only where it was stored (a 500 to the
 * operator API and /dev/reminders), the second a date other than the one written. Both are
 * refused, with `message` (by default ISO_INSTANT_MESSAGE).
 */
export const isoInstant = (message: string = ISO_INSTANT_MESSAGE) =>
	v.pipe(
		v.string(message),
		v.isoTimestamp(message),
		v.check(dayExists, message),
		v.transform((s) => new Date(s)),
		v.check((d) => !Number.isNaN(d.getTime()), message),
		// PostgreSQL has no year 0 (1 BC), which 0000 and an offset before 0001's first hours name.
		v.check(
			(d) => Number.isNaN(d.getTime()) || (d.getUTCFullYear() >= 1 && d.getUTCFullYear() <= 9999),
			YEARS_MESSAGE
		)
	);

export const YEARS_MESSAGE = 'must be a moment in the years 0001 to 9999 (UTC)';

/**
 * Whether the date part (YYYY-MM-DD) names a day its month has. Text with no such part is left to
 * isoTimestamp, which has refused it already: one reason per field.
 */
function dayExists(s: string): boolean {
	const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
	if (!date) return true;
	const [year, month, day] = date.slice(1).map(Number) as [number, number, number];
	// Day 0 of the next month is the last day of this one.
	return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}
