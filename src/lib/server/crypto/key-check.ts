import { eq, isNotNull } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { ConfigError } from '$lib/server/config/config';
import type { Db } from '$lib/server/db';
import {
	decisions,
	identityAttempts,
	keyChecks,
	linkReminders,
	mailOutbox,
	presentedPdfs
} from '$lib/server/db/schema';
import { decrypt, encrypt } from './secretbox';

const NAME = 'encryption';
/** The refusal's heading: the settings are well formed, the key is not the data's. */
export const KEY_REFUSED = 'The encryption key is not the one this database was written with:';
const PLAIN = 'the portal encryption key check';

/** Every column that holds a box made under the encryption key. */
const BOXES: [PgTable, PgColumn][] = [
	[decisions, decisions.ssnEnc],
	[mailOutbox, mailOutbox.bodyEnc],
	[identityAttempts, identityAttempts.questionsEnc],
	[presentedPdfs, presentedPdfs.bytesEnc],
	[linkReminders, linkReminders.urlEnc]
];

/** Whether `box` opens under `key` (and, given, holds `plain`). */
function opens(key: Buffer, box: string, plain?: string): boolean {
	try {
		const opened = decrypt(key, box);
		return plain === undefined || opened === plain;
	} catch {
		return false;
	}
}

/** A box the database already holds, if any: what a portal before the check wrote. */
async function anyBox(db: Db): Promise<string | undefined> {
	for (const [table, column] of BOXES) {
		const [row] = await db.select({ box: column }).from(table).where(isNotNull(column)).limit(1);
		if (typeof row?.box === 'string') return row.box;
	}
	return undefined;
}

/**
 * Refuses a start under a key other than the one the database's secrets were written with.
 * Without it, a new key file, a typo in PORTAL_ENCRYPTION_KEY or a restore without its key would
 * start cleanly, write new records under the new key, and fail on every read of the old ones: the
 * waiting decisions, the queued mail, the signed copies. The check is a box made under the key on
 * first use (or on the first start after an upgrade, once a box already held opens), kept in
 * `key_checks`. `source` names where the key came from, for the message.
 */
export async function checkEncryptionKey(db: Db, key: Buffer, source: string): Promise<void> {
	const refuse = () =>
		new ConfigError(
			[
				`${source}: this key does not open what the database holds, which was encrypted under another key. Start with the key the data was written with (restore it from where you keep it apart from the backups); the portal does not change keys.`
			],
			KEY_REFUSED
		);
	const read = async () =>
		(await db.select({ box: keyChecks.box }).from(keyChecks).where(eq(keyChecks.name, NAME)))[0]
			?.box;
	let box = await read();
	if (box === undefined) {
		const held = await anyBox(db);
		if (held !== undefined && !opens(key, held)) throw refuse();
		// Two instances starting at once: the first box stands, and the other checks against it.
		await db
			.insert(keyChecks)
			.values({ name: NAME, box: encrypt(key, PLAIN) })
			.onConflictDoNothing();
		box = await read();
	}
	if (box === undefined || !opens(key, box, PLAIN)) throw refuse();
}
