import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '.';
import { DataDirBusyError, lockDataDir } from './lock';

const dirs: string[] = [];
const tempDir = () => {
	const d = mkdtempSync(join(tmpdir(), 'portal-lock-'));
	dirs.push(d);
	return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const holderFile = (dir: string, pid: number, host = hostname()) =>
	writeFileSync(
		join(dir, 'db.lock'),
		JSON.stringify({ pid, host, since: '2026-01-01T00:00:00.000Z', what: 'the portal' })
	);

describe('the embedded database’s one-process lock', () => {
	it('is taken once, refused to a second opener, and given back', () => {
		const dir = tempDir();
		const release = lockDataDir(dir, 'the portal');
		expect(JSON.parse(readFileSync(join(dir, 'db.lock'), 'utf8'))).toMatchObject({
			pid: process.pid,
			what: 'the portal'
		});
		expect(() => lockDataDir(dir, '`npm run reps`')).toThrow(DataDirBusyError);
		release();
		expect(existsSync(join(dir, 'db.lock'))).toBe(false);
		lockDataDir(dir, '`npm run reps`')();
	});

	it('names the running holder and the way out', async () => {
		const dir = tempDir();
		const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
		try {
			holderFile(dir, child.pid!);
			let message = '';
			try {
				lockDataDir(dir, '`npm run reps`');
			} catch (err) {
				message = (err as Error).message;
			}
			expect(message).toContain(`the portal (process ${child.pid}`);
			expect(message).toContain('DATABASE_URL');
			expect(message).toContain(join(dir, 'db.lock'));
		} finally {
			child.kill();
		}
	});

	it('replaces a lock left by a process that is gone, or by an earlier life of this pid', async () => {
		const dir = tempDir();
		const child = spawn(process.execPath, ['-e', '']);
		await new Promise((r) => child.once('exit', r));
		holderFile(dir, child.pid!);
		const ours = () => JSON.parse(readFileSync(join(dir, 'db.lock'), 'utf8')).since;
		const release = lockDataDir(dir, 'the portal');
		expect(ours()).not.toBe('2026-01-01T00:00:00.000Z');
		release();
		// A container's process is pid 1 every time: a file naming us that we did not write is stale.
		holderFile(dir, process.pid);
		const again = lockDataDir(dir, 'the portal');
		expect(ours()).not.toBe('2026-01-01T00:00:00.000Z');
		again();
	});

	it('is held by an open PGlite database until it is closed', async () => {
		const dir = tempDir();
		const database = await openDatabase({ dataDir: dir, holder: 'the test' });
		await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/in use by the test/);
		await database.close();
		const again = await openDatabase({ dataDir: dir });
		await again.close();
		expect(existsSync(join(dir, 'db.lock'))).toBe(false);
	});
});
