/**
 * A moment as a person reads it, in a named zone: "Tuesday, December 1, 2026 at 11:00 AM Central
 * Standard Time". Never without the zone. Narrow spaces ICU puts before AM/PM become plain ones.
 */
export function zonedTime(iso: string, timeZone: string, opts: { seconds?: boolean } = {}): string {
	return new Intl.DateTimeFormat('en-US', {
		timeZone,
		weekday: 'long',
		year: 'numeric',
		month: 'long',
		day: 'numeric',
		hour: 'numeric',
		minute: '2-digit',
		...(opts.seconds ? { second: '2-digit' } : {}),
		timeZoneName: 'long'
	})
		.format(new Date(iso))
		.replace(/[\u202f\u00a0]/g, ' ');
}

/** The browser's own zone, when it names one. */
export function browserZone(): string | null {
	try {
		return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
	} catch {
		return null;
	}
}
