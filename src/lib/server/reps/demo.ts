import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Db } from '$lib/server/db';
import { addRep, findRepByEmail, RepExistsError } from './accounts';

/**
 * The demo rep of the sandbox's office 1207, seeded on embedded defaults only (never with
 * DATABASE_URL). Rep number 31 is the `RepNo` of the sandbox's first demo applications, so their
 * merchants' pages name this rep. The password is generated into the data folder, where
 * `npm start` reads it to print it.
 */
export const DEMO_REP = {
	officeId: 1207,
	repNo: 31,
	name: 'Sam Ortiz',
	email: 'sam.ortiz@office1207.example',
	phone: '(217) 555-0100'
} as const;

export const DEMO_PASSWORD_FILE = 'demo-rep-password';
/** Present while the demo rep is disabled: `npm start` then prints no password that cannot sign in. */
export const DEMO_DISABLED_FILE = 'demo-rep-disabled';

function demoPassword(dataDir: string): string {
	const file = resolve(dataDir, DEMO_PASSWORD_FILE);
	if (existsSync(file)) return readFileSync(file, 'utf8').trim();
	const password = randomBytes(15).toString('base64url');
	writeFileSync(file, password + '\n', { mode: 0o600 });
	return password;
}

/**
 * Adds the demo rep unless its email, or rep 31 of office 1207, already has an account (one the
 * operator added or changed is left as it is).
 */
export async function seedDemoRep(db: Db, dataDir: string): Promise<void> {
	if (await findRepByEmail(db, DEMO_REP.email)) return;
	try {
		await addRep(db, { ...DEMO_REP }, demoPassword(dataDir));
	} catch (err) {
		if (!(err instanceof RepExistsError)) throw err;
	}
}

/**
 * The demo rep was disabled, or enabled again (`npm run reps -- disable`/`enable`): noted in the
 * data folder, where `npm start` reads it, on embedded defaults only.
 */
export function noteDemoDisabled(
	config: { DATABASE_URL?: string | null; DATA_DIR: string },
	email: string,
	disabled: boolean
): void {
	if (config.DATABASE_URL || email.trim().toLowerCase() !== DEMO_REP.email) return;
	const file = resolve(config.DATA_DIR, DEMO_DISABLED_FILE);
	if (disabled) writeFileSync(file, 'disabled\n', { mode: 0o600 });
	else rmSync(file, { force: true });
}

/**
 * The demo rep's password was changed (in the console, or by `npm run reps -- reset-password`):
 * the generated one in the data folder no longer signs in, so `npm start` stops printing it.
 * The new one is never written down. On embedded defaults only, where the demo rep is seeded.
 */
export function forgetDemoPassword(
	config: { DATABASE_URL?: string | null; DATA_DIR: string },
	email: string
): void {
	if (config.DATABASE_URL || email.trim().toLowerCase() !== DEMO_REP.email) return;
	rmSync(resolve(config.DATA_DIR, DEMO_PASSWORD_FILE), { force: true });
}
