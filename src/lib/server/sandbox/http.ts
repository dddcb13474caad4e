/** Response helpers in the service's style (ASP.NET Web API: `Message`, `ModelState`). */

export type ModelState = Record<string, string[]>;

export const INVALID = 'The request is invalid.';

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
	return new Response(JSON.stringify(body), {
		status,
		headers: { 'content-type': 'application/json; charset=utf-8', ...headers }
	});
}

export function message(status: number, text: string, headers: Record<string, string> = {}) {
	return json({ Message: text }, status, headers);
}

export function invalid(modelState: ModelState): Response {
	return json({ Message: INVALID, ModelState: modelState }, 400);
}

export function addError(state: ModelState, key: string, reason: string): void {
	(state[key] ??= []).push(reason);
}

export const notFound = (text = 'No HTTP resource was found that matches the request URI.') =>
	message(404, text);

/** An answer with a status and no body ("an HTTP response code only"). */
export const empty = (status: number) => new Response(null, { status });

export type JsonBody = { ok: true; value: unknown } | { ok: false; response: Response };

/**
 * Reads a JSON body. Malformed JSON or an empty body is a 400 naming `key` (the parameter the
 * service binds the body to), as model binding would.
 */
export async function readJson(request: Request, key: string): Promise<JsonBody> {
	let text: string;
	try {
		text = await request.text();
	} catch (err) {
		// Over BODY_SIZE_LIMIT kit stops reading with a 413 of its own; a client that goes away
		// mid-body leaves none to read. Neither is the service's fault (a 500).
		const status = (err as { status?: unknown })?.status === 413 ? 413 : 400;
		return {
			ok: false,
			response: message(
				status,
				status === 413 ? 'The request body is too large.' : 'The request body could not be read.'
			)
		};
	}
	if (text.trim() === '') {
		return { ok: false, response: invalid({ [key]: [`A request body is required.`] }) };
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return { ok: false, response: invalid({ [key]: ['The request body is not valid JSON.'] }) };
	}
	// PostgreSQL's text holds neither: kept as a 400 here, rather than the database's error.
	if (!storable(value)) {
		return {
			ok: false,
			response: invalid({
				[key]: ['The request body holds a NUL character or a lone surrogate (\\u0000, \\ud800).']
			})
		};
	}
	return { ok: true, value };
}

/** Whether every string in a parsed body (keys too) can be kept in PostgreSQL's text. */
function storable(value: unknown): boolean {
	const stack = [value];
	while (stack.length > 0) {
		const item = stack.pop();
		if (typeof item === 'string') {
			if (!storableText(item)) return false;
		} else if (item !== null && typeof item === 'object') {
			for (const [k, v] of Object.entries(item)) {
				if (!storableText(k)) return false;
				stack.push(v);
			}
		}
	}
	return true;
}

/** Text PostgreSQL can keep: no NUL, and well-formed UTF-16 (no lone surrogate). */
export const storableText = (s: string) => !s.includes('\0') && s.isWellFormed();

/** Standard reason phrases for fault responses. */
export function reason(status: number): string {
	const phrases: Record<number, string> = {
		400: 'Bad Request',
		401: 'Unauthorized',
		403: 'Forbidden',
		404: 'Not Found',
		409: 'Conflict',
		410: 'Gone',
		422: 'Unprocessable Entity',
		423: 'Locked',
		429: 'Too Many Requests',
		500: 'An error has occurred.',
		502: 'Bad Gateway',
		503: 'Service Unavailable',
		504: 'Gateway Timeout'
	};
	return phrases[status] ?? `Status ${status}`;
}
