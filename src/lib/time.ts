const STYLES = {
	/** "Tuesday, December 1, 2026 at 11:00 AM Central Standard Time": what a merchant reads. */
	long: {
		weekday: 'long',
		year: 'numeric',
		month: 'long',
		day: 'numeric',
		hour: 'numeric',
		minute: '2-digit',
		timeZoneName: 'long'
	},
	/** "Mar 4, 2026, 2:05 PM CST": the console's lists. */
	short: {
		year: 'numeric',
		month: 'short',
		day: 'numeric',
		hour: 'numeric',
		minute: '2-digit',
		timeZoneName: 'short'
	}
} satisfies Record<string, Intl.DateTimeFormatOptions>;

export type TimeStyle = keyof typeof STYLES;

// Building a formatter costs far more than using one: made per call, it was the link page's
// costliest function on the server (tests/bench/NOTES.md, section 6). One per zone, style and
// precision, kept. The zones are the operator's setting and a browser's own, so the map stays
// small; the bound is for anything else.
const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 64;

/**
 * A moment in a named zone, never without the zone, in one of the styles above (with the seconds
 * where a record needs them). Narrow spaces newer ICU puts before AM/PM become plain ones.
 */
export function formatTime(
	at: Date,
	timeZone: string,
	style: TimeStyle,
	opts: { seconds?: boolean } = {}
): string {
	const key = `${style} ${opts.seconds ? 's' : 'm'} ${timeZone}`;
	let f = formatters.get(key);
	if (!f) {
		if (formatters.size >= MAX_FORMATTERS) formatters.clear();
		f = new Intl.DateTimeFormat('en-US', {
			timeZone,
			...STYLES[style],
			...(opts.seconds ? { second: '2-digit' } : {})
		});
		formatters.set(key, f);
	}
	return f.format(at).replace(/[\u202f\u00a0]/g, ' ');
}

/** An ISO 8601 instant in the long style (see formatTime). */
export function zonedTime(iso: string, timeZone: string, opts: { seconds?: boolean } = {}): string {
	return formatTime(new Date(iso), timeZone, 'long', opts);
}

/** The browser's own zone, when it names one. */
export function browserZone(): string | null {
	try {
		return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
	} catch {
		return null;
	}
}
