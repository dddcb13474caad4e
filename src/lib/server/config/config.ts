import addressparser from 'nodemailer/lib/addressparser';
import * as v from 'valibot';
import { EmailSchema, NameSchema, PhoneSchema } from '$lib/server/reps/schemas';
import {
	ADAPTER_SETTINGS,
	HEADER_NAME,
	httpUrl,
	integer,
	problemLines,
	unlessEmpty
} from './adapter.js';

/**
 * The portal's settings, read from the environment only and validated once at start.
 * Every setting is documented in `.env.example` and the README.
 */

const optionalText = v.optional(
	v.pipe(
		v.string(),
		v.trim(),
		v.transform((s) => (s === '' ? undefined : s))
	)
);

/** Unset or empty, or else matching the pattern. */
const optionalMatching = (pattern: RegExp, message: string) =>
	unlessEmpty(v.pipe(v.string(), v.regex(pattern, message)));

/** One sender, as nodemailer reads a From header: an address, with a name before it if you like. */
function isSender(value: string): boolean {
	const parsed = addressparser(value, { flatten: true });
	return parsed.length === 1 && v.is(v.pipe(v.string(), v.rfcEmail()), parsed[0]!.address);
}

const base64Key = unlessEmpty(
	v.pipe(
		v.string(),
		v.check(
			(s) => /^[A-Za-z0-9+/]+={0,2}$/.test(s) && Buffer.from(s, 'base64').length === 32,
			'must be 32 random bytes in base64 (openssl rand -base64 32)'
		)
	)
);

/**
 * An IANA zone name the runtime knows, Area/Location or UTC. Offsets (+05:00) and abbreviations
 * (CST, which the runtime still takes as a legacy alias) are refused: neither follows summer time.
 */
export function isTimeZone(name: string): boolean {
	if (name !== 'UTC' && !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)+$/.test(name)) return false;
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: name });
		return true;
	} catch {
		return false;
	}
}

export const EnvSchema = v.object({
	ONBOARDING_BASE_URL: httpUrl('https://onboarding.example.com'),
	ONBOARDING_AUTH_HEADER: v.optional(
		v.pipe(v.string(), v.trim(), v.regex(HEADER_NAME, 'must be an HTTP header name')),
		'Authorization'
	),
	ONBOARDING_AUTH_VALUE: optionalText,
	ONBOARDING_TIMEOUT_MS: integer(100, 120_000, 10_000),
	ONBOARDING_CACHE_SECONDS: integer(0, 3600, 60),
	ONBOARDING_CACHE_MB: integer(1, 1024, 16),
	DATA_DIR: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'is empty')), './data'),
	DATABASE_URL: optionalMatching(
		/^postgres(ql)?:\/\//,
		'must be a postgres:// or postgresql:// connection string'
	),
	PORTAL_ENCRYPTION_KEY: base64Key,
	PORTAL_ENCRYPTION_KEY_FILE: optionalText,
	OPERATOR_API_KEY: unlessEmpty(
		v.pipe(v.string(), v.minLength(24, 'must be at least 24 characters'))
	),
	LINK_TTL_HOURS: integer(1, 24 * 90, 24 * 7),
	SESSION_IDLE_MINUTES: integer(1, 24 * 60, 30),
	IDENTITY_TIME_LIMIT_SECONDS: integer(10, 3600, 120),
	IDENTITY_MAX_ATTEMPTS: integer(1, 10, 2),
	IDENTITY_WINDOW_HOURS: integer(1, 24 * 30, 24),
	RATE_LIMIT_LINK_OPEN: integer(1, 1_000_000, 30),
	RATE_LIMIT_LINK_MISS: integer(1, 1_000_000, 30),
	RATE_LIMIT_OPERATOR_AUTH: integer(1, 1_000_000, 10),
	RATE_LIMIT_IDENTITY: integer(1, 1_000_000, 10),
	RATE_LIMIT_DECISION: integer(1, 1_000_000, 10),
	DELIVERY_INTERVAL_SECONDS: integer(1, 3600, 10),
	// Reps: sessions, sign-in limits, the console.
	REP_SESSION_IDLE_MINUTES: integer(1, 24 * 60, 30),
	REP_SESSION_MAX_HOURS: integer(1, 24 * 7, 12),
	IN_PERSON_IDLE_SECONDS: integer(5, 3600, 180),
	REP_SIGNIN_MAX_FAILURES: integer(1, 100, 5),
	REP_SIGNIN_MAX_FAILURES_PER_ADDRESS: integer(1, 1_000_000, 20),
	REP_SIGNIN_LOCKOUT_MINUTES: integer(1, 24 * 60, 15),
	CONSOLE_REFRESH_SECONDS: integer(2, 3600, 10),
	SEAL_P12_FILE: optionalText,
	SEAL_P12_PASSPHRASE: v.optional(v.string()),
	SMTP_URL: optionalMatching(
		/^smtps?:\/\/[^/\s]/,
		'must be an smtp:// or smtps:// address such as smtps://user:pass@smtp.example.com:465'
	),
	MAIL_FROM: v.optional(
		v.pipe(
			v.string(),
			v.trim(),
			v.check(
				isSender,
				'must be one sender address, with a name before it if you like: Signing portal <no-reply@example.com>'
			)
		),
		'Signing portal <no-reply@localhost>'
	),
	MAIL_MAX_ATTEMPTS: integer(1, 50, 8),
	MAIL_RETRY_SECONDS: integer(1, 86_400, 60),
	REMINDER_FIRST_DAYS: integer(1, 90, 3),
	REMINDER_EVERY_DAYS: integer(1, 90, 2),
	REMINDER_MAX: integer(0, 20, 3),
	OFFICE_TIME_ZONE: v.optional(
		v.pipe(
			v.string(),
			v.trim(),
			v.check(isTimeZone, 'must be an IANA time zone such as America/Chicago or America/New_York')
		),
		'America/Chicago'
	),
	// Whom a merchant's pages and emails name when the application's rep has no account here.
	OFFICE_CONTACT_NAME: unlessEmpty(NameSchema),
	OFFICE_CONTACT_EMAIL: unlessEmpty(EmailSchema),
	OFFICE_CONTACT_PHONE: unlessEmpty(PhoneSchema),
	...ADAPTER_SETTINGS
});

export type Env = v.InferOutput<typeof EnvSchema>;

/** The office contact is a name and an email, with a phone if you like: never part of one. */
function officeContactProblems(set: (key: string) => boolean): string[] {
	const keys = ['OFFICE_CONTACT_NAME', 'OFFICE_CONTACT_EMAIL', 'OFFICE_CONTACT_PHONE'];
	const given = keys.filter(set);
	const missing = keys.slice(0, 2).filter((k) => !set(k));
	if (given.length === 0 || missing.length === 0) return [];
	const are = (ks: string[]) => (ks.length > 1 ? 'are' : 'is');
	return [
		`${missing.join(' and ')}: ${are(missing)} not set, but ${given.join(' and ')} ${are(given)}: the office contact needs a name and an email (a phone is optional), or none of them`
	];
}

export interface Config extends Env {
	/** True when no ONBOARDING_BASE_URL is set: the embedded sandbox serves `/sandbox`. */
	sandbox: boolean;
	/** Where the portal's own client reaches the Onboarding Service. */
	onboardingBaseUrl: string;
}

export class ConfigError extends Error {
	constructor(
		readonly problems: string[],
		heading = 'Invalid configuration:'
	) {
		super(`${heading}\n${problems.map((p) => `  - ${p}`).join('\n')}`);
		this.name = 'ConfigError';
	}
}

/** Validates the environment; throws a ConfigError that lists every bad value. */
export function parseConfig(
	env: Record<string, string | undefined>,
	opts: { devPort?: number } = {}
): Config {
	const input = Object.fromEntries(Object.keys(EnvSchema.entries).map((k) => [k, env[k]]));
	const result = v.safeParse(EnvSchema, input);
	// A setting that means nothing without another: said rather than silently ignored.
	const set = (key: string) => !!env[key]?.trim();
	const unpaired = [
		...(env.SEAL_P12_PASSPHRASE && !set('SEAL_P12_FILE')
			? [
					'SEAL_P12_PASSPHRASE: is set, but SEAL_P12_FILE (the bundle it opens) is not: set both, or neither to let the portal generate its own seal'
				]
			: []),
		...officeContactProblems(set),
		// Two keys given: the one used would be a matter of precedence, and the database is tied
		// to it for good once it has written a secret (crypto/key-check.ts).
		...(set('PORTAL_ENCRYPTION_KEY') && set('PORTAL_ENCRYPTION_KEY_FILE')
			? [
					'PORTAL_ENCRYPTION_KEY and PORTAL_ENCRYPTION_KEY_FILE: both are set; give the key one way only'
				]
			: [])
	];
	if (!result.success || unpaired.length) {
		throw new ConfigError([...(result.success ? [] : problemLines(result.issues)), ...unpaired]);
	}
	const out = result.output;
	const sandbox = out.ONBOARDING_BASE_URL === undefined;
	const port = opts.devPort ?? out.PORT;
	const localHost =
		!out.HOST || out.HOST === '0.0.0.0' || out.HOST === '::' ? '127.0.0.1' : out.HOST;
	const selfUrl = `http://${localHost.includes(':') ? `[${localHost}]` : localHost}:${port}`;
	return {
		...out,
		sandbox,
		// The portal's client talks to the embedded sandbox over real HTTP on loopback, exactly as
		// it talks to the real service, so that the same code path is exercised on a fresh machine.
		onboardingBaseUrl: out.ONBOARDING_BASE_URL ?? `${selfUrl}/sandbox`
	};
}
