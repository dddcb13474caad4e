// Plain JavaScript, so that scripts/start.js can check these before it loads the build.
import * as v from 'valibot';

/**
 * The settings adapter-node reads itself. It reads most of them when `build/index.js` loads,
 * before the portal's own check runs, and a bad one ended in a stack trace (`PORT=abc` as an
 * "Invalid ORIGIN", since start.js makes the origin from the port); a bad XFF_DEPTH was
 * accepted and failed every request. So they are checked here, with the portal's settings
 * (config.ts), and by scripts/start.js before it loads the build, each in our words.
 */

/**
 * A whole number from min to max, as a string of digits; one message for every way it is not.
 * @param {number} min
 * @param {number} max
 * @param {string} [unit] " of seconds"
 */
const wholeNumber = (min, max, unit = '') => {
	const message = `must be a whole number${unit} from ${min} to ${max}`;
	return v.pipe(
		v.string(),
		v.regex(/^\d+$/, message),
		v.transform(Number),
		v.minValue(min, message),
		v.maxValue(max, message)
	);
};

/**
 * @param {number} min
 * @param {number} max
 * @param {number} fallback
 */
export const integer = (min, max, fallback) =>
	v.optional(v.pipe(v.string(), v.trim(), wholeNumber(min, max)), String(fallback));

/**
 * Unset, empty or only spaces (the setting is then left out), or else what `schema` takes.
 * @template {import('valibot').GenericSchema<string, unknown>} T
 * @param {T} schema
 */
export const unlessEmpty = (schema) =>
	v.optional(
		v.pipe(
			v.string(),
			v.trim(),
			v.transform((s) => (s === '' ? undefined : s)),
			v.optional(schema)
		)
	);

/**
 * Unset or empty, or else an absolute http(s) URL that `fits`, without its trailing slashes; one
 * check, so that one bad value is one line.
 * @param {(url: URL) => boolean} fits
 * @param {string} message
 */
const httpUrlThat = (fits, message) =>
	unlessEmpty(
		v.pipe(
			v.string(),
			v.check(
				(s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol) && fits(new URL(s)),
				message
			),
			v.transform((s) => s.replace(/\/+$/, ''))
		)
	);

/**
 * Unset or empty, or else an http(s) URL, without its trailing slashes.
 * @param {string} [example]
 */
export const httpUrl = (example = 'https://portal.example.com') =>
	httpUrlThat(() => true, `must be an absolute http:// or https:// URL such as ${example}`);

/**
 * Unset or empty, or else an http(s) origin: the portal serves at its root, so a path would be
 * printed and then left out of every link it makes.
 */
const origin = () =>
	httpUrlThat(
		(url) => url.pathname === '/' && !url.search && !url.hash,
		'must be an http:// or https:// address with no path, such as https://sign.example.com'
	);

/** An HTTP header's name: a token (RFC 9110). */
export const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/** Unset or empty, or else the name of an HTTP header. */
const headerName = () =>
	unlessEmpty(v.pipe(v.string(), v.regex(HEADER_NAME, 'must be an HTTP header name')));

/** Unset or empty (adapter-node's default), or else whole seconds. */
const seconds = (max = 86_400) => unlessEmpty(wholeNumber(0, max, ' of seconds'));

export const ADAPTER_SETTINGS = {
	PORT: integer(1, 65_535, 3000),
	/** Read by adapter-node; scripts/start.js sets 127.0.0.1 on embedded defaults when unset. */
	HOST: v.optional(v.string()),
	ORIGIN: origin(),
	BODY_SIZE_LIMIT: v.optional(
		v.pipe(
			v.string(),
			v.trim(),
			v.regex(
				/^(?:\d+[KMG]?|Infinity)?$/i,
				'must be a number of bytes, with K, M or G after it if you like (such as 512K or 8M), or Infinity'
			)
		)
	),
	KEEP_ALIVE_TIMEOUT: seconds(),
	HEADERS_TIMEOUT: seconds(),
	SHUTDOWN_TIMEOUT: seconds(),
	IDLE_TIMEOUT: seconds(),
	ADDRESS_HEADER: headerName(),
	XFF_DEPTH: integer(1, 20, 1),
	PROTOCOL_HEADER: headerName(),
	HOST_HEADER: headerName(),
	PORT_HEADER: headerName()
};

/**
 * Where the portal listens when HOST is unset. While the embedded sandbox is on (no
 * ONBOARDING_BASE_URL), its control API (right answers, faults, reset) and the development
 * mailbox (live signing links) are served, whatever the database: this machine only. With a real
 * Onboarding Service, adapter-node's default, every interface.
 * @param {Record<string, string | undefined>} env
 * @returns {string | undefined} undefined: adapter-node's default
 */
export function defaultHost(env) {
	if (env.HOST) return undefined;
	return env.ONBOARDING_BASE_URL?.trim() ? undefined : '127.0.0.1';
}

/**
 * One line per bad setting ("PORT: must be a whole number from 1 to 65535"), or none.
 * @param {Record<string, string | undefined>} env
 * @returns {string[]}
 */
export function adapterProblems(env) {
	const input = Object.fromEntries(Object.keys(ADAPTER_SETTINGS).map((k) => [k, env[k]]));
	const result = v.safeParse(v.object(ADAPTER_SETTINGS), input);
	return result.success ? [] : problemLines(result.issues);
}

/**
 * A settings check's issues as the portal prints them: the setting, then what is wrong with it.
 * @param {import('valibot').BaseIssue<unknown>[]} issues
 * @returns {string[]}
 */
export function problemLines(issues) {
	return issues.map((issue) => `${v.getDotPath(issue) ?? 'setting'}: ${issue.message}`);
}
