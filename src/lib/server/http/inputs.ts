/**
 * What every request body must be before any route sees it, checked once for all routes (the
 * `inputs` handle in hooks.server.ts), so that a form or endpoint added later is covered without
 * doing anything:
 * - a form action's name is one SvelteKit can look up safely (not `default`, not a member of
 *   `Object.prototype`, which SvelteKit 2 would call);
 * - a form body is one `request.formData()` can read, sent as a browser sends forms (a page's
 *   forms take nothing else: JSON is for the operator's endpoints);
 * - a JSON body parses and has no `__proto__`/`constructor`/`prototype` keys;
 * - no text anywhere in it holds a control character (they break the database's text, hide
 *   content from the people reading it, and have no place in a name, an email or a reason);
 * - no text holds bytes that were not UTF-8 (see UNREADABLE).
 */

import { maskedCut, maskedSsn } from '$lib/server/signing/ssn';

export interface InputProblem {
	status: 400 | 404 | 413 | 415;
	message: string;
	/** Reasons by field: a form field's name, or a JSON value's dot path. */
	errors: Record<string, string>;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);
/** SvelteKit passes these to form actions too, but `request.formData()` cannot read them. */
const UNREADABLE_FORM_TYPES = new Set(['text/plain', 'application/x-sveltekit-formdata']);
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

// Tab, line feed and carriage return are what a textarea sends; every other C0 control, DEL and
// the C1 controls are refused. So are the bidirectional embeddings, overrides and isolates
// (U+202A–202E, U+2066–2069): invisible, they make text read otherwise than it is ("evil" shown
// reversed in a decline reason the rep reads). The marks (U+200E, U+200F) are left to RTL text.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export const hasControlCharacter = (s: string) => CONTROL.test(s);

// U+FFFD, what the body's bytes that were not UTF-8 were read as (Latin-1 from an old client, a
// form posted with another charset): the text as it was typed is gone, so it is refused rather
// than recorded garbled, as "Their reason: ���" in a rep's note. No one types the character itself.
const UNREADABLE = '\uFFFD';

export const hasUnreadable = (s: string) => s.includes(UNREADABLE);

/** The text less its control characters: what may be shown back after refusing them. */
export const withoutControlCharacters = (s: string) =>
	s.replace(new RegExp(CONTROL.source, 'g'), '');

/**
 * Text a client sent without anyone typing it into a form (a User-Agent, an uploaded file's
 * name), as the portal keeps or shows it: control and invisible characters go (a header's bytes
 * may read as C1 controls), it is cut to `max` characters, and whatever looks like an SSN is
 * masked (a file may be named after the person: "Dana Reyes 587-31-4926.pdf").
 */
export function clientText(text: string, max: number): string {
	const plain = text.replace(/[\p{Cc}\p{Cf}]/gu, '');
	return maskedCut(plain, '[number]', max);
}

/**
 * Reasons keyed by names the client chose: without a prototype, a field called `__proto__` or
 * `toString` is just a key.
 */
export const reasonsByField = <T = string>() => Object.create(null) as Record<string, T>;

/**
 * A field's name as the answer may say it back: the client chose it, so one that looks like an
 * SSN (a form posted with the number as a field's name) is masked, as typed text is.
 */
export const fieldName = (name: string) => maskedSsn(name, '[number]');

const REPEATED_REASON = 'Sent more than once.';
const CONTROL_REASON =
	'This contains an invisible control character (such as NUL, a backspace or a text-direction override). Type it again without one.';
const UNREADABLE_REASON =
	'Part of this arrived in a form that can’t be read (it was not sent as UTF-8 text). Type it again.';

export function mediaType(request: Request): string {
	return request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The form action a POST names (`?/accept`), as SvelteKit reads it: the first `/` key. */
export function actionName(url: URL): string | undefined {
	for (const [key] of url.searchParams) if (key.startsWith('/')) return key.slice(1);
	return undefined;
}

function checkActionName(url: URL): InputProblem | null {
	const name = actionName(url);
	if (name === undefined) return null;
	if (name !== 'default' && !Object.prototype.hasOwnProperty.call(Object.prototype, name)) {
		return null;
	}
	return {
		status: 404,
		message: 'This page has no form by that name.',
		errors: { action: 'No form action has this name.' }
	};
}

async function checkForm(request: Request): Promise<InputProblem | null> {
	let form: FormData;
	try {
		form = await request.clone().formData();
	} catch (error) {
		// The server's BODY_SIZE_LIMIT cut the body off (adapter-node's own 413).
		if ((error as { status?: unknown } | null)?.status === 413) {
			return {
				status: 413,
				message: 'What was sent is larger than this portal takes.',
				errors: { form: 'The form, with any file in it, is larger than the portal’s limit.' }
			};
		}
		return {
			status: 400,
			message: 'The form could not be read. Reload the page and send it again.',
			errors: { form: 'The form arrived damaged: it could not be read as a form.' }
		};
	}
	const errors = reasonsByField();
	let control = false;
	// No page of ours sends a field twice (each form's names differ, a radio group sends one): one
	// sent twice is read as its last value by every action, which would take `consent=no&consent=yes`
	// as a tick.
	const seen = new Set<string>();
	let repeated = false;
	for (const [name, value] of form) {
		if (seen.has(name)) {
			errors[fieldName(name)] = REPEATED_REASON;
			repeated = true;
			continue;
		}
		seen.add(name);
		if (hasControlCharacter(name) || hasUnreadable(name)) {
			errors.form = 'A field name contains a character that can’t be accepted.';
			control ||= hasControlCharacter(name);
		} else if (typeof value === 'string' && hasControlCharacter(value)) {
			errors[fieldName(name)] = CONTROL_REASON;
			control = true;
		} else if (typeof value === 'string' && hasUnreadable(value)) {
			errors[fieldName(name)] = UNREADABLE_REASON;
		}
	}
	if (Object.keys(errors).length === 0) return null;
	return {
		status: 400,
		message: control
			? 'Some of what was sent contains invisible control characters, which can’t be accepted. Type those fields again and send the form again.'
			: repeated
				? 'A field was sent more than once, which this page’s form never does, so nothing was done. Reload the page and send the form again.'
				: 'Some of what was sent arrived in a form that can’t be read. Type those fields again and send the form again.',
		errors
	};
}

/** A page's form posted as anything but a form (JSON, text): SvelteKit reads forms only. */
const NOT_A_FORM = (type: string): InputProblem => ({
	status: 415,
	message: 'Forms are accepted only as application/x-www-form-urlencoded or multipart/form-data.',
	errors: { 'content-type': `${type} is not accepted here` }
});

export type JsonBody = { ok: true; value: unknown } | { ok: false; problem: InputProblem };

/**
 * Parses a JSON body (empty is `{}`) and refuses prototype keys and control characters anywhere
 * in it. Iterative, so a deeply nested body cannot exhaust the stack.
 */
export function parseJsonBody(text: string): JsonBody {
	if (text.trim() === '') return { ok: true, value: {} };
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return {
			ok: false,
			problem: {
				status: 400,
				message: 'The body is not valid JSON.',
				errors: { body: 'must be valid JSON' }
			}
		};
	}
	const errors = reasonsByField();
	const stack: [unknown, string][] = [[value, '']];
	while (stack.length > 0 && Object.keys(errors).length < 20) {
		const [item, path] = stack.pop()!;
		if (typeof item === 'string') {
			if (hasControlCharacter(item)) errors[path || 'body'] = 'must not contain control characters';
			else if (hasUnreadable(item))
				errors[path || 'body'] = 'must be UTF-8 text: part of it can’t be read';
		} else if (item !== null && typeof item === 'object') {
			for (const [key, child] of Object.entries(item)) {
				const at = path ? `${path}.${fieldName(key)}` : fieldName(key);
				if (FORBIDDEN_KEYS.has(key) || hasControlCharacter(key)) {
					errors[hasControlCharacter(key) ? path || 'body' : at] = 'is not an accepted field name';
				} else {
					stack.push([child, at]);
				}
			}
		}
	}
	if (Object.keys(errors).length > 0) {
		return { ok: false, problem: { status: 400, message: 'The body is invalid.', errors } };
	}
	return { ok: true, value };
}

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');

/**
 * The operator API reads JSON only: a body sent as anything else (curl's `-d` alone sends a form
 * type) is named as such rather than read as JSON, or found not to be. A body compressed on the
 * way is not unpacked here, so it is refused rather than read as text. No body needs no type.
 */
/** A body sent compressed: neither the forms nor the JSON endpoints read one. */
function compressed(request: Request, what: 'body' | 'form'): InputProblem | null {
	const encoding = request.headers.get('content-encoding')?.trim().toLowerCase();
	if (!encoding || encoding === 'identity') return null;
	return {
		status: 415,
		message: `Send the ${what} uncompressed.`,
		errors: { 'content-encoding': `${encoding} is not accepted here` }
	};
}

/**
 * The body as text, or why not: cut off at the server's size limit (adapter-node's 413), or the
 * client gone before it was all sent (a reset): the client's doing, answered, never logged.
 */
async function bodyText(request: Request): Promise<string | InputProblem> {
	try {
		return await request.clone().text();
	} catch (error) {
		if ((error as { status?: unknown } | null)?.status === 413) {
			return {
				status: 413,
				// As handleError said it when this read failed in the hook (links e2e).
				message: 'What was sent is larger than this portal accepts.',
				errors: { body: 'is larger than the portal’s limit' }
			};
		}
		return {
			status: 400,
			message: 'The body could not be read: the connection ended before all of it arrived.',
			errors: { body: 'arrived incomplete' }
		};
	}
}

const NOT_JSON = (
	type: string,
	message = 'Send the body as JSON, with the header content-type: application/json.'
): InputProblem => ({
	status: 415,
	message,
	errors: { 'content-type': `${type || 'a body without a type'} is not accepted here` }
});

/**
 * A body sent without a content-type, as the request's headers tell (adapter-node hands on no
 * body then, its get_raw_body: read as empty, it must not pass for none). One sent in chunks may
 * be empty, which the server cannot see: the refusal says how to send none.
 */
function untypedBody(request: Request): InputProblem | null {
	if (Number(request.headers.get('content-length') ?? 0) > 0) return NOT_JSON('');
	if (!request.headers.has('transfer-encoding')) return null;
	return NOT_JSON(
		'',
		'Send the body as JSON, with the header content-type: application/json. With no body, send none: a body sent in chunks without a type can’t be read here, even an empty one.'
	);
}

async function checkApiBody(request: Request, type: string): Promise<InputProblem | null> {
	const untyped = type ? null : untypedBody(request);
	if (untyped) return untyped;
	const packed = compressed(request, 'body');
	if (packed) return packed;
	const text = await bodyText(request);
	if (typeof text !== 'string') return text;
	if (text.trim() !== '' && !isJson(type)) return NOT_JSON(type);
	const body = parseJsonBody(text);
	return body.ok ? null : body.problem;
}

const isSandbox = (path: string) => path === '/sandbox' || path.startsWith('/sandbox/');
/**
 * The operator's JSON endpoints: the operator API, and the sandbox's reminder run, which takes the
 * operator key too. Their bodies are checked as JSON and their refusals are JSON.
 */
export const isApiPath = (path: string) => path.startsWith('/api/') || path === '/dev/reminders';

/**
 * The first thing wrong with a request's action name or body, or null. The embedded sandbox is
 * left alone: it stands in for the Onboarding Service, which has rules of its own.
 */
export async function checkRequest(request: Request, url: URL): Promise<InputProblem | null> {
	if (!UNSAFE.has(request.method) || isSandbox(url.pathname)) return null;
	const type = mediaType(request);
	if (request.method === 'POST' && !isApiPath(url.pathname)) {
		const problem = checkActionName(url);
		if (problem) return problem;
	}
	if (isApiPath(url.pathname)) return checkApiBody(request, type);
	if (FORM_TYPES.has(type)) return compressed(request, 'form') ?? checkForm(request);
	// Refused as what it is, whether it parses or not: a 400 about JSON would answer a question
	// the page's form never asked.
	if (isJson(type) || UNREADABLE_FORM_TYPES.has(type)) return NOT_A_FORM(type);
	return null;
}
