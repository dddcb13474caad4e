import * as v from 'valibot';
import { OnboardingError, parseErrorBody } from './errors';

export interface SendLogEntry {
	method: string;
	/** The path template (`/api/office/{officeid}/...`): no ids, no query string. */
	path: string;
	/** HTTP status, or 0 when no response arrived. */
	status: number;
	durationMs: number;
	/** Why no response arrived, in our words with the system's code: `no connection (ECONNREFUSED)`. */
	problem?: string;
}

export interface TransportOptions {
	baseUrl: string;
	/** Header that carries the credential; `Authorization` unless configured. */
	authHeader?: string;
	/** The credential; when unset no auth header is sent at all. */
	authValue?: string;
	/** Bound on each attempt, connect to last body byte. */
	timeoutMs?: number;
	fetch?: typeof fetch;
	/** Where one line per attempt goes; `false` for none. Defaults to console.info. */
	log?: ((entry: SendLogEntry) => void) | false;
	/** Backoff before each GET retry, before jitter; tests shorten it. */
	retryDelaysMs?: readonly number[];
}

export interface SendRequest<T> {
	operation: string;
	method: 'GET' | 'POST';
	/** A template such as `/api/office/{officeid}/pdf/{applicationid}`. */
	path: string;
	params?: Record<string, string | number>;
	query?: Record<string, string>;
	body?: unknown;
	accept?: string;
	/** Statuses outside 2xx that are answers, not errors (the identity answer's 422/410/423). */
	answerStatuses?: readonly number[];
	/** Turns an accepted response into the result; runs under the same timeout. */
	read: (res: Response) => Promise<T>;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_RETRY_DELAYS_MS = [100, 300];
const RETRYABLE_STATUSES = new Set([502, 503, 504]);

/** One call to the Onboarding Service: auth, timeout, GET-only retries, error mapping. */
export async function send<T>(opts: TransportOptions, req: SendRequest<T>): Promise<T> {
	// At most two retries, whatever a caller configures: a third rarely helps and doubles the wait.
	const delays =
		req.method === 'GET' ? (opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS).slice(0, 2) : [];
	for (let attempt = 0; ; attempt++) {
		const outcome = await attemptOnce(opts, req);
		if (outcome.ok) return outcome.value;
		const delay = delays[attempt];
		if (!isRetryable(outcome.error) || delay === undefined) throw outcome.error;
		await sleep(delay * (0.75 + Math.random() * 0.5));
	}
}

/** A timeout is not retried: the attempt already used the whole budget the caller allowed. */
const isRetryable = (err: OnboardingError) =>
	err.kind === 'network' || (err.kind === 'http' && RETRYABLE_STATUSES.has(err.status));

type Outcome<T> = { ok: true; value: T } | { ok: false; error: OnboardingError };

async function attemptOnce<T>(opts: TransportOptions, req: SendRequest<T>): Promise<Outcome<T>> {
	const fetchFn = opts.fetch ?? fetch;
	const signal = AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
	const url = buildUrl(opts.baseUrl, req);
	const started = performance.now();
	let status = 0;
	let problem: string | undefined;
	try {
		const res = await fetchFn(url, {
			method: req.method,
			headers: buildHeaders(opts, req),
			body: req.body === undefined ? undefined : JSON.stringify(req.body),
			signal,
			// A custom auth header would follow a redirect to any host; the service has no reason
			// to redirect, so one is treated as a failure.
			redirect: 'error'
		});
		status = res.status;
		if (res.ok || req.answerStatuses?.includes(res.status)) {
			return { ok: true, value: await req.read(res) };
		}
		const { form, fieldErrors } = parseErrorBody(await res.text());
		const error = new OnboardingError({
			kind: 'http',
			operation: req.operation,
			status: res.status,
			form,
			fieldErrors
		});
		return { ok: false, error };
	} catch (err) {
		if (err instanceof OnboardingError) return { ok: false, error: err };
		const kind = signal.aborted ? 'timeout' : 'network';
		// The cause of a network failure is kept for operators; it names hosts, not payloads.
		const cause = kind === 'network' ? err : undefined;
		problem = status === 0 ? noResponse(kind, err) : undefined;
		const error = new OnboardingError({ kind, operation: req.operation, status: 0, cause });
		return { ok: false, error };
	} finally {
		logAttempt(opts, req, status, performance.now() - started, problem);
	}
}

/**
 * Why a call got no response, for the log: a wrong ONBOARDING_BASE_URL otherwise shows as a bare
 * status 0. Only the system's code is kept (ECONNREFUSED, ENOTFOUND, a TLS code), never fetch's
 * message.
 */
function noResponse(kind: 'timeout' | 'network', err: unknown): string {
	if (kind === 'timeout') return 'no answer within ONBOARDING_TIMEOUT_MS';
	const code = ((err as { cause?: { code?: unknown } })?.cause ?? {}).code;
	return typeof code === 'string' && /^[A-Z0-9_]+$/.test(code)
		? `no connection (${code})`
		: 'no connection';
}

function buildUrl(baseUrl: string, req: SendRequest<unknown>): string {
	const path = req.path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = req.params?.[name];
		if (value === undefined) throw new TypeError(`Missing path parameter ${name}`);
		return encodeURIComponent(String(value));
	});
	const query = req.query ? `?${new URLSearchParams(req.query).toString()}` : '';
	return `${baseUrl.replace(/\/+$/, '')}${path}${query}`;
}

function buildHeaders(opts: TransportOptions, req: SendRequest<unknown>): Headers {
	const headers = new Headers({ Accept: req.accept ?? 'application/json' });
	if (req.body !== undefined) headers.set('Content-Type', 'application/json; charset=utf-8');
	if (opts.authValue) headers.set(opts.authHeader || 'Authorization', opts.authValue);
	return headers;
}

function logAttempt(
	opts: TransportOptions,
	req: SendRequest<unknown>,
	status: number,
	ms: number,
	problem: string | undefined
) {
	if (opts.log === false) return;
	const entry: SendLogEntry = {
		method: req.method,
		path: req.path,
		status,
		durationMs: Math.round(ms)
	};
	if (problem) entry.problem = problem;
	if (opts.log) opts.log(entry);
	else {
		const why = problem ? ` (${problem})` : '';
		console.info(
			`onboarding ${entry.method} ${entry.path} ${entry.status} ${entry.durationMs}ms${why}`
		);
	}
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Parses a JSON body with a schema; any mismatch names the first failing field path. */
export async function readJson<S extends v.GenericSchema>(
	res: Response,
	schema: S,
	operation: string
): Promise<v.InferOutput<S>> {
	return parseWith(schema, operation, parseJsonText(await res.text(), operation));
}

export function parseJsonText(text: string, operation: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		throw new OnboardingError({
			kind: 'schema',
			operation,
			fieldPath: '(body)',
			fieldErrors: { '(body)': [text.trim() === '' ? 'empty body' : 'not JSON'] }
		});
	}
}

export function parseWith<S extends v.GenericSchema>(
	schema: S,
	operation: string,
	data: unknown
): v.InferOutput<S> {
	const result = v.safeParse(schema, data);
	if (result.success) return result.output;
	const fieldErrors: Record<string, string[]> = {};
	for (const issue of result.issues) {
		const path = v.getDotPath(issue) ?? '(root)';
		// `expected` only: an issue's message quotes the received value, which may be personal data.
		(fieldErrors[path] ??= []).push(`expected ${issue.expected ?? issue.type}`);
	}
	throw new OnboardingError({
		kind: 'schema',
		operation,
		fieldPath: v.getDotPath(result.issues[0]) ?? '(root)',
		fieldErrors
	});
}
