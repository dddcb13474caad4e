import { and, asc, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '$lib/server/db';
import { repSessions, reps } from '$lib/server/db/schema';
import { hashPassword, isCurrentCost } from './password';
import type { NewRep } from './schemas';

export type Rep = typeof reps.$inferSelect;

export class RepExistsError extends Error {
	constructor(readonly field: 'email' | 'repNo') {
		super(
			field === 'email'
				? 'a rep with this email already exists'
				: 'this office already has an active rep with this rep number'
		);
		this.name = 'RepExistsError';
	}
}

const sameEmail = (email: string) => sql`lower(${reps.email}) = lower(${email.trim()})`;

/** PostgreSQL's unique_violation, from the driver's error or the one Drizzle wraps it in. */
function uniqueViolation(err: unknown): string | undefined {
	for (let e = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
		const { code, constraint } = e as { code?: unknown; constraint?: unknown };
		if (code === '23505') return typeof constraint === 'string' ? constraint : '';
	}
	return undefined;
}

export async function findRepByEmail(db: Tx, email: string): Promise<Rep | undefined> {
	const [row] = await db.select().from(reps).where(sameEmail(email));
	return row;
}

/**
 * How a password was set. `temporary`: the operator chose it, so the rep must choose their own
 * before the console opens (reps/guard.ts requireRep); not when the rep typed it at the
 * operator's terminal themselves, nor for the demo rep.
 */
export interface PasswordSetting {
	temporary?: boolean;
}

export async function addRep(
	db: Db,
	input: NewRep,
	password: string,
	now = new Date(),
	{ temporary = false }: PasswordSetting = {}
) {
	if (await findRepByEmail(db, input.email)) throw new RepExistsError('email');
	const passwordHash = await hashPassword(password);
	try {
		const [row] = await db
			.insert(reps)
			.values({
				...input,
				phone: input.phone ?? null,
				passwordHash,
				createdAt: now,
				passwordChangedAt: now,
				passwordTemporary: temporary
			})
			.returning();
		return row!;
	} catch (err) {
		const constraint = uniqueViolation(err);
		// Two operators adding the same rep at once: the index decides, the message is ours.
		if (constraint !== undefined)
			throw new RepExistsError(constraint === 'reps_email' ? 'email' : 'repNo');
		throw err;
	}
}

export async function listReps(db: Db, officeId?: number): Promise<Rep[]> {
	return db
		.select()
		.from(reps)
		.where(officeId === undefined ? undefined : eq(reps.officeId, officeId))
		.orderBy(asc(reps.officeId), asc(reps.repNo), asc(reps.email));
}

/** Ends every open session of a rep (disabled, or a new password) but the one to `keep`. */
async function closeSessionsOf(db: Tx, repId: string, now: Date, keep?: string) {
	await db
		.update(repSessions)
		.set({ closedAt: now })
		.where(
			and(
				eq(repSessions.repId, repId),
				isNull(repSessions.closedAt),
				keep === undefined ? undefined : ne(repSessions.id, keep)
			)
		);
}

/** What `npm run reps -- update` may change: a typo in an email, a name or a phone. */
export interface RepChanges {
	email?: string;
	name?: string;
	/** null: no phone any more. */
	phone?: string | null;
}

/**
 * Changes a rep's email, name or phone (their office and number stay: what they signed in person
 * is recorded under them). A new email another rep has, in any case, is refused.
 */
export async function updateRep(db: Db, email: string, changes: RepChanges) {
	if (changes.email !== undefined) {
		const holder = await findRepByEmail(db, changes.email);
		if (holder && holder.email.toLowerCase() !== email.trim().toLowerCase()) {
			throw new RepExistsError('email');
		}
	}
	try {
		const [row] = await db.update(reps).set(changes).where(sameEmail(email)).returning();
		return row;
	} catch (err) {
		if (uniqueViolation(err) !== undefined) throw new RepExistsError('email');
		throw err;
	}
}

export async function disableRep(db: Db, email: string, now = new Date()) {
	return db.transaction(async (tx) => {
		const [row] = await tx
			.update(reps)
			.set({ disabledAt: now })
			.where(and(sameEmail(email), isNull(reps.disabledAt)))
			.returning();
		if (row) await closeSessionsOf(tx, row.id, now);
		return row;
	});
}

export async function enableRep(db: Db, email: string) {
	try {
		const [row] = await db
			.update(reps)
			.set({ disabledAt: null })
			.where(sameEmail(email))
			.returning();
		return row;
	} catch (err) {
		if (uniqueViolation(err) !== undefined) throw new RepExistsError('repNo');
		throw err;
	}
}

/** A new password for the rep `which` finds, and their sessions closed but the one to `keep`. */
async function newPassword(
	db: Db,
	which: SQL | undefined,
	password: string,
	now: Date,
	temporary: boolean,
	keep?: string
): Promise<Rep | undefined> {
	const passwordHash = await hashPassword(password);
	return db.transaction(async (tx) => {
		const [row] = await tx
			.update(reps)
			.set({ passwordHash, passwordChangedAt: now, passwordTemporary: temporary })
			.where(which)
			.returning();
		if (row) await closeSessionsOf(tx, row.id, now, keep);
		return row;
	});
}

/** Sets a new password (the operator's reset) and signs the rep out everywhere. */
export async function setRepPassword(
	db: Db,
	email: string,
	password: string,
	now = new Date(),
	{ temporary = false }: PasswordSetting = {}
) {
	return newPassword(db, sameEmail(email), password, now, temporary);
}

/**
 * A rep's own change of password (the console's password page), once the current one was
 * checked: every other session of theirs ends (another browser, a device left signed in); the
 * one they changed it in goes on. Nothing for a rep disabled meanwhile (undefined).
 */
export async function changeRepPassword(
	db: Db,
	rep: { id: string; sessionId: string },
	password: string,
	now = new Date()
): Promise<Rep | undefined> {
	const which = and(eq(reps.id, rep.id), isNull(reps.disabledAt));
	return newPassword(db, which, password, now, false, rep.sessionId);
}

/**
 * Replaces a hash made at an older cost with one at today's, after the password was checked
 * against it. Only if the row still holds that hash: a password set meanwhile stands.
 */
export async function upgradePasswordHash(db: Db, rep: Rep, password: string) {
	if (isCurrentCost(rep.passwordHash)) return;
	const passwordHash = await hashPassword(password);
	await db
		.update(reps)
		.set({ passwordHash })
		.where(and(eq(reps.id, rep.id), eq(reps.passwordHash, rep.passwordHash)));
}

/** The active account of an office's rep number: whom an application's pages name. */
export async function activeRep(db: Tx, officeId: number, repNo: number): Promise<Rep | undefined> {
	const [row] = await db
		.select()
		.from(reps)
		.where(and(eq(reps.officeId, officeId), eq(reps.repNo, repNo), isNull(reps.disabledAt)));
	return row;
}
