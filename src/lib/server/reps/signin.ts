import { isPlainAscii } from '$lib/email';
import { plural } from '$lib/server/audit/labels';
import type { Config } from '$lib/server/config/config';
import type { Db } from '$lib/server/db';
import { hashToken } from '$lib/server/crypto/tokens';
import type { RequestMeta } from '$lib/server/http/meta';
import {
	clearLimit,
	hitLockout,
	lockoutNow,
	undoHit,
	waitWords,
	type Limit
} from '$lib/server/ratelimit/ratelimit';
import { findRepByEmail, upgradePasswordHash, type Rep } from './accounts';
import { DUMMY_HASH, verifyPassword } from './password';
import { createRepSession, endRepSession } from './session';
import { limitAddress } from '$lib/server/http/address';

export interface SignInRules {
	maxFailures: number;
	maxFailuresPerAddress: number;
	lockoutMinutes: number;
}

/** The settings' counts of wrong passwords: sign-in, the lock screen and a password change. */
export const signInRules = (config: Config): SignInRules => ({
	maxFailures: config.REP_SIGNIN_MAX_FAILURES,
	maxFailuresPerAddress: config.REP_SIGNIN_MAX_FAILURES_PER_ADDRESS,
	lockoutMinutes: config.REP_SIGNIN_LOCKOUT_MINUTES
});

/**
 * A wrong email or password. `left`: how many more tries of this email, from this address, are
 * checked before a pause (the email's or the address's, whichever comes first); 0 when the next
 * one, right or wrong, is already paused.
 */
/**
 * `disabled`: the password was the account's own, and an operator disabled it. Only someone who
 * knows the password learns that much, and the rep is then told whom to ask, not to try again.
 */
export type WrongPassword = {
	ok: false;
	reason: 'invalid';
	left: number;
	/** With `left` 0: how long the pause it starts lasts (at most two lockout windows). */
	pausedSeconds?: number;
	disabled?: boolean;
};

/**
 * `said` of a wrong password, and once few tries are left (WrongPassword's `left`) a warning
 * after it, so the pause comes with warning: `what` is what pauses ("sign-in", "unlocking").
 * `said` alone while more are left.
 */
export function withPauseWarning(
	said: string,
	{ left, pausedSeconds }: Pick<WrongPassword, 'left' | 'pausedSeconds'>,
	rules: SignInRules,
	what: string
): string {
	// Up to two windows: a run of failures across a window's edge pauses only to the window's end.
	const pause = `for up to ${plural(2 * rules.lockoutMinutes, 'minute')}`;
	if (left <= 0) {
		// The wait the next try would be told, not "up to": the two must not differ.
		return pausedSeconds !== undefined
			? `${said} That was the last try: ${what} is paused now. Try again in ${waitWords(pausedSeconds)}.`
			: `${said} That was the last try: ${what} is paused now, ${pause}.`;
	}
	if (left > 2) return said;
	return `${said} ${left === 1 ? 'One more wrong try' : 'Two more wrong tries'}, and ${what} pauses ${pause}.`;
}

export type SignInResult =
	| { ok: true; secret: string }
	| WrongPassword
	| { ok: false; reason: 'locked'; retryAfterSeconds: number };

export type PasswordCheck =
	| { ok: true; rep: Rep }
	| WrongPassword
	| { ok: false; reason: 'locked'; retryAfterSeconds: number };

/** The two counts of wrong passwords a try is judged by: its account's (or key's), its address's. */
function passwordLimits(
	rules: SignInRules,
	input: { email: string; limitKey?: string },
	meta: RequestMeta
): { account: Limit; address: Limit } {
	const windowSeconds = rules.lockoutMinutes * 60;
	return {
		account: {
			// By a hash: what was typed as the email (anything, known or not) is not kept as typed.
			key: input.limitKey ?? `rep-signin:email:${hashToken(input.email.trim().toLowerCase())}`,
			max: rules.maxFailures,
			windowSeconds
		},
		address: {
			key: `rep-signin:ip:${limitAddress(meta.ip)}`,
			max: rules.maxFailuresPerAddress,
			windowSeconds
		}
	};
}

/**
 * Whether checkRepPassword would refuse the next try unlooked-at (a pause after wrong passwords),
 * and for how many seconds more; null when it would look. Counts nothing.
 */
export async function passwordPaused(
	db: Db,
	rules: SignInRules,
	input: { email: string; limitKey?: string },
	meta: RequestMeta,
	now = new Date()
): Promise<number | null> {
	const { account, address } = passwordLimits(rules, input, meta);
	const paused = (
		await Promise.all([lockoutNow(db, account, now), lockoutNow(db, address, now)])
	).filter((s) => s !== null);
	return paused.length > 0 ? Math.max(...paused) : null;
}

/**
 * Checks a rep's email and password. Every attempt is counted up front, atomically, against the
 * email typed (known or not, so a lockout says nothing about which accounts exist) and the
 * client's address; a success takes its count back, so only failures lock. A locked email or
 * address is refused without looking at the password until its failures leave the window they
 * fell in and the next one (hitLockout: a run across a window's edge locks too). Sign-in and the
 * tablet's unlock share the counts: one password, one budget of guesses.
 */
export async function checkRepPassword(
	db: Db,
	rules: SignInRules,
	input: {
		email: string;
		password: string;
		/** The count of wrong passwords to keep apart from the account's (the lock screen's). */
		limitKey?: string;
	},
	meta: RequestMeta,
	now = new Date()
): Promise<PasswordCheck> {
	const { account, address } = passwordLimits(rules, input, meta);
	const [a, b] = await Promise.all([hitLockout(db, account, now), hitLockout(db, address, now)]);
	if (!a.ok || !b.ok) {
		// Refused without looking at the password, so not a guess: the limit that let it through
		// takes its hit back. Presses at a paused lock screen (a count of its own) would otherwise
		// pause sign-ins from the whole office's address.
		if (a.ok) await undoHit(db, account, now);
		if (b.ok) await undoHit(db, address, now);
		return {
			ok: false,
			reason: 'locked',
			retryAfterSeconds: Math.max(a.ok ? 0 : a.retryAfterSeconds, b.ok ? 0 : b.retryAfterSeconds)
		};
	}
	// Every rep's email is plain ASCII (the reps CLI takes no other), so one with any other letter
	// names no account. Looked up all the same, it could reach one under a count of its own: the
	// database's lower() folds İ into i, where the key above (toLowerCase) keeps it apart, and
	// `sam.ortİz@…` had five more guesses at sam.ortiz@…'s password, and so had each such spelling.
	const rep = isPlainAscii(input.email) ? await findRepByEmail(db, input.email) : undefined;
	// The same work whether or not the account exists or is disabled.
	const matches = await verifyPassword(rep?.passwordHash ?? DUMMY_HASH, input.password);
	if (!rep || rep.disabledAt || !matches) {
		// This one counted already. The tries left are the fewer of the email's and the address's:
		// the address's is shared by a whole office behind one address, and a colleague's slips
		// bring its pause nearer, but that pause stops this rep too, so it is told before it comes.
		const left = Math.min(account.max - a.count, address.max - b.count);
		const disabled = Boolean(rep?.disabledAt) && matches;
		// The pause this one starts (either limit's, the longer when both): what the next is told.
		const paused = [a.pausedSeconds, b.pausedSeconds].filter((s) => s !== undefined);
		return {
			ok: false,
			reason: 'invalid',
			left: Math.max(0, left),
			...(paused.length > 0 && { pausedSeconds: Math.max(...paused) }),
			...(disabled && { disabled })
		};
	}
	await clearLimit(db, account.key);
	await undoHit(db, address, now);
	await upgradePasswordHash(db, rep, input.password);
	return { ok: true, rep };
}

/** Signs a rep in (see `checkRepPassword`) with a new session id. */
export async function signIn(
	db: Db,
	rules: SignInRules,
	input: { email: string; password: string; previousSecret?: string },
	meta: RequestMeta,
	now = new Date()
): Promise<SignInResult> {
	const checked = await checkRepPassword(db, rules, input, meta, now);
	if (!checked.ok) return checked;
	// A new session id at every sign-in; whatever the browser held before ends.
	await endRepSession(db, input.previousSecret, now);
	return { ok: true, secret: await createRepSession(db, checked.rep.id, meta, now) };
}
