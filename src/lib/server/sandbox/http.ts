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
	const text = await request.text();
	if (text.trim() === '') {
		return { ok: false, response: invalid({ [key]: [`A request body is required.`] }) };
	}
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch {
		return { ok: false, response: invalid({ [key]: ['The request body is not valid JSON.'] }) };
	}
}

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
