/**
 * A form refused before its action ran: hooks.server.ts checks every form body first (control
 * characters, a body too large) and answers `use:enhance` with a failure of its own, which names
 * the action (`default` for a page's one form), says why in `message`, and gives reasons by field
 * name. A page with several forms shows it at the one that was sent. With `use:enhance` the
 * fields still hold what was typed: nothing of it comes back.
 */
export interface InputRefusal {
	action: string;
	message: string;
	errors: Record<string, string>;
}

export function inputRefusal(form: unknown): InputRefusal | null {
	if (!form || typeof form !== 'object') return null;
	const f = form as Record<string, unknown>;
	if (typeof f.action !== 'string' || typeof f.message !== 'string' || 'error' in f) return null;
	const errors = f.errors && typeof f.errors === 'object' ? f.errors : {};
	return { action: f.action, message: f.message, errors: errors as Record<string, string> };
}
