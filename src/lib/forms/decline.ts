/** What came back from a refused decline, for the decline panel beside its field. */
export interface DeclineFailure {
	/** The reason as typed (less any SSN); undefined where the page still holds it. */
	reason?: string;
	error: string;
}

/**
 * A refused decline, whichever refused it: the step's action (`decline`), or the check every
 * form body passes first (hooks.server.ts), whose reasons are by field name, here `reason`, and
 * which an enhanced form answers without reloading, so the textarea still holds what was typed.
 */
export function declineFailure(form: unknown): DeclineFailure | null {
	if (!form || typeof form !== 'object') return null;
	if ('decline' in form && form.decline) return form.decline as DeclineFailure;
	const errors = 'errors' in form ? (form.errors as Record<string, string> | undefined) : undefined;
	return errors?.reason ? { error: errors.reason } : null;
}

/** The page's banner, unless the decline panel shows the refusal beside its field. */
export function bannerOf(form: unknown): string | null {
	if (!form || typeof form !== 'object' || declineFailure(form)) return null;
	return 'message' in form && typeof form.message === 'string' ? form.message : null;
}
