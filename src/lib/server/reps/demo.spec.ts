import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openMemoryDatabase } from '$lib/server/db';
import { verifyPassword } from './password';
import { findRepByEmail } from './accounts';
import {
	DEMO_DISABLED_FILE,
	DEMO_PASSWORD_FILE,
	DEMO_REP,
	forgetDemoPassword,
	noteDemoDisabled,
	seedDemoRep
} from './demo';

describe('the demo rep', { timeout: 60_000 }, () => {
	const dir = mkdtempSync(join(tmpdir(), 'demo-rep-'));
	afterAll(() => rmSync(dir, { recursive: true, force: true }));
	const file = join(dir, DEMO_PASSWORD_FILE);

	it('is seeded with the password generated into the data folder', async () => {
		const database = await openMemoryDatabase();
		try {
			await seedDemoRep(database.db, dir);
			const rep = await findRepByEmail(database.db, DEMO_REP.email);
			const password = readFileSync(file, 'utf8').trim();
			expect(password.length).toBeGreaterThanOrEqual(15);
			expect(await verifyPassword(rep!.passwordHash, password)).toBe(true);
		} finally {
			await database.close();
		}
	});

	it('loses the written-down password once it was changed, on embedded defaults only', () => {
		forgetDemoPassword({ DATA_DIR: dir }, 'riley@example.com');
		expect(existsSync(file)).toBe(true);
		forgetDemoPassword({ DATA_DIR: dir, DATABASE_URL: 'postgres://x@h/db' }, DEMO_REP.email);
		expect(existsSync(file)).toBe(true);
		forgetDemoPassword({ DATA_DIR: dir }, ` ${DEMO_REP.email.toUpperCase()} `);
		expect(existsSync(file)).toBe(false);
		// Twice is nothing more.
		forgetDemoPassword({ DATA_DIR: dir }, DEMO_REP.email);
	});

	it('is noted as disabled while it is, so that the start prints no password for it', () => {
		const marker = join(dir, DEMO_DISABLED_FILE);
		noteDemoDisabled({ DATA_DIR: dir }, 'riley@example.com', true);
		noteDemoDisabled({ DATA_DIR: dir, DATABASE_URL: 'postgres://x@h/db' }, DEMO_REP.email, true);
		expect(existsSync(marker)).toBe(false);
		noteDemoDisabled({ DATA_DIR: dir }, DEMO_REP.email.toUpperCase(), true);
		expect(existsSync(marker)).toBe(true);
		noteDemoDisabled({ DATA_DIR: dir }, DEMO_REP.email, false);
		expect(existsSync(marker)).toBe(false);
		noteDemoDisabled({ DATA_DIR: dir }, DEMO_REP.email, false);
	});
});
