// Building a formatter costs far more than using one (a console page formats a time or two per
// row): one per zone, kept. The zones are the operator's settings, so the map stays small.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
	let f = formatters.get(timeZone);
	if (!f) {
		f = new Intl.DateTimeFormat('en-US', {
			timeZone,
			year: 'numeric',
			month: 'short',
			day: 'numeric',
			hour: 'numeric',
			minute: '2-digit',
			timeZoneName: 'short'
		});
		formatters.set(timeZone, f);
	}
	return f;
}

/**
 * A time as people at the office read it, with the zone named ("Mar 4, 2026, 2:05 PM CST"), so a
 * time is never ambiguous, whoever reads it and from wherever.
 */
export function officeTime(date: Date, timeZone: string): string {
	return (
		formatterFor(timeZone)
			.format(date)
			// Newer ICU puts a narrow no-break space before AM/PM: plain text wants a plain one.
			.replace(/[\u202f\u00a0]/g, ' ')
	);
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
