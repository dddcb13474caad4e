import * as v from 'valibot';
import { ErrorBodySchema } from './schemas';

export type OnboardingErrorKind = 'http' | 'timeout' | 'network' | 'schema';

/** Which of the four error bodies the service sent (see the contract, "Errors"). */
export type UpstreamErrorForm = 'message' | 'model-state' | 'text' | 'empty';

export interface OnboardingErrorInit {
	kind: OnboardingErrorKind;
	operation: string;
	status?: number;
	fieldErrors?: Record<string, string[]>;
	fieldPath?: string;
	form?: UpstreamErrorForm;
	cause?: unknown;
}

const PHRASES: Record<number, string> = {
	400: 'the request was rejected as invalid',
	401: 'the credential was refused',
	403: 'the request is not allowed',
	404: 'not found',
	409: 'conflict with the current state',
	410: 'no longer available',
	422: 'could not be processed',
	423: 'locked',
	429: 'too many requests'
};

function describe(init: OnboardingErrorInit): string {
	const op = `Onboarding Service ${init.operation}`;
	switch (init.kind) {
		case 'timeout':
			return `${op} timed out`;
		case 'network':
			return `${op} could not be reached`;
		case 'schema':
			return `${op} answered with an unexpected shape at ${init.fieldPath ?? '(root)'}`;
		case 'http': {
			const status = init.status ?? 0;
			const phrase =
				PHRASES[status] ?? (status >= 500 ? 'the service failed' : 'unexpected status');
			return `${op} failed with HTTP ${status}: ${phrase}`;
		}
	}
}

/**
 * A decision's last delivery error (kept as describe() composed it, or the delivery's own words)
 * as the rep reads it: what happened, without the operation's programmer name. Older records are
 * said the same way, since their text is the same.
 */
export function deliveryProblem(lastError: string): string {
	const http = / failed with HTTP (\d+): (.+)$/.exec(lastError);
	if (http) return `the onboarding service answered HTTP ${http[1]} (${http[2]})`;
	if (lastError.endsWith(' timed out')) return 'the onboarding service did not answer in time';
	if (lastError.endsWith(' could not be reached'))
		return 'the onboarding service could not be reached';
	if (lastError.includes(' answered with an unexpected shape')) {
		return 'the onboarding service’s answer was not in the shape its interface gives';
	}
	if (lastError === 'no SSN on record') return 'its SSN was no longer on record to send';
	if (lastError === 'unexpected error') return 'an unexpected error in the portal';
	return lastError;
}

/**
 * Every failure of a call to the Onboarding Service. The message is composed here from the
 * status and operation only: upstream bodies may echo personal data and are never shown.
 */
export class OnboardingError extends Error {
	readonly kind: OnboardingErrorKind;
	/** HTTP status, or 0 when no response arrived (timeout, network) or for a schema failure. */
	readonly status: number;
	readonly operation: string;
	/** ModelState reasons by field (http), or the failing response paths (schema). */
	readonly fieldErrors: Record<string, string[]>;
	/** For a schema failure: the dot path of the first field that did not match. */
	readonly fieldPath: string | undefined;
	/** For an http failure: which error body form arrived. */
	readonly form: UpstreamErrorForm | undefined;

	constructor(init: OnboardingErrorInit) {
		super(describe(init), init.cause === undefined ? undefined : { cause: init.cause });
		this.name = 'OnboardingError';
		this.kind = init.kind;
		this.status = init.status ?? 0;
		this.operation = init.operation;
		this.fieldErrors = init.fieldErrors ?? {};
		this.fieldPath = init.fieldPath;
		this.form = init.form;
	}
}

export interface ParsedErrorBody {
	form: UpstreamErrorForm;
	fieldErrors: Record<string, string[]>;
}

/**
 * Reads an error body in any of its four forms. `{ Message }` text itself is not kept: the
 * status says what happened, and the field reasons of ModelState are what a form can show.
 */
export function parseErrorBody(text: string): ParsedErrorBody {
	if (text.trim() === '') return { form: 'empty', fieldErrors: {} };
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch {
		return { form: 'text', fieldErrors: {} };
	}
	const parsed = v.safeParse(ErrorBodySchema, data);
	if (!parsed.success) return { form: 'text', fieldErrors: {} };
	const state = parsed.output.ModelState;
	if (!state) return { form: 'message', fieldErrors: {} };
	return { form: 'model-state', fieldErrors: readModelState(state) };
}

function readModelState(state: Record<string, unknown>): Record<string, string[]> {
	const out: Record<string, string[]> = {};
	for (const [field, reasons] of Object.entries(state)) {
		const list = Array.isArray(reasons) ? reasons : [reasons];
		const strings = list.filter((r): r is string => typeof r === 'string');
		if (strings.length > 0) out[field] = strings;
	}
	return out;
}

/**
 * The service answered 404 to an office's list of applications: it has no such office, or the
 * portal asks the wrong address (a base URL without its path answers 404 to everything). An
 * answer, not the service's silence: said so by the console, an application's page and the API.
 */
export const officeUnknown = (err: unknown): boolean =>
	err instanceof OnboardingError && err.status === 404;
