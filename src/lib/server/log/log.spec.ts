import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openMemoryDatabase, schema, type Database } from '$lib/server/db';
import { handleError } from '../../../hooks.server';
import { describeError, logError } from './log';

const PERSONAL = ['Dana', 'dana@blueheron.example', '203.0.113.9'];

/** A real driver error: PostgreSQL text cannot hold U+0000, and the message lists the params. */
async function databaseError(db: Database): Promise<unknown> {
	try {
		await db.db.insert(schema.signingLinks).values({
			tokenHash: 'x',
			officeId: 1,
			applicationId: 1,
			email: PERSONAL[1]!,
			createdBy: `${PERSONAL[0]}\u0000 from ${PERSONAL[2]}`,
			expiresAt: new Date()
		});
	} catch (err) {
		return err;
	}
	throw new Error('the insert was expected to fail');
}

function capture() {
	const lines: string[] = [];
	const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
		lines.push(args.map(String).join(' '));
	});
	return { lines, restore: () => spy.mockRestore() };
}

describe('error logging', () => {
	let db: Database;
	let err: unknown;
	beforeAll(async () => {
		db = await openMemoryDatabase();
		err = await databaseError(db);
	});
	afterAll(() => db.close());

	it('the driver’s own message does carry the parameters (what this guards against)', () => {
		expect(String((err as Error).message)).toContain(PERSONAL[1]);
	});

	it('names the error class and the SQLSTATE code of each cause, never a message', () => {
		const line = describeError(err);
		expect(line).toMatch(/^DrizzleQueryError <- \w+ code=\w+/);
		for (const value of PERSONAL) expect(line).not.toContain(value);
		expect(line).not.toMatch(/params|insert|signing_links/i);
	});

	it('keeps short codes and statuses, and drops anything that could be data', () => {
		const e = Object.assign(new TypeError('secret dana@x.example'), {
			code: 'ERR_X',
			status: 502,
			operation: 'a value with spaces and dana@x.example'
		});
		expect(describeError(e)).toBe('TypeError code=ERR_X status=502');
		expect(describeError('dana@x.example')).toBe('string');
		expect(describeError(null)).toBe('object');
	});

	it('handleError logs a 500 by class and code, with an id, and tells the page nothing more', () => {
		const out = capture();
		try {
			const result = handleError({
				error: err,
				event: {
					request: new Request('http://portal.test/sign/sign?/accept', { method: 'POST' }),
					url: new URL('http://portal.test/sign/sign?/accept'),
					route: { id: '/sign/sign' }
				} as Parameters<typeof handleError>[0]['event'],
				status: 500,
				message: 'Internal Error'
			}) as App.Error;
			expect(result.errorId).toMatch(/^[0-9a-f-]{36}$/);
			expect(out.lines).toHaveLength(1);
			expect(out.lines[0]).toContain(`[error ${result.errorId}] POST /sign/sign failed:`);
			expect(out.lines[0]).toContain('DrizzleQueryError');
			for (const value of PERSONAL) expect(out.lines[0]).not.toContain(value);
			expect(JSON.stringify(result)).not.toContain(PERSONAL[0]);
		} finally {
			out.restore();
		}
	});

	it('logError puts our words first', () => {
		const out = capture();
		try {
			logError('worker', 'delivery round failed', err);
			expect(out.lines[0]).toMatch(/^\[worker\] delivery round failed: DrizzleQueryError/);
			for (const value of PERSONAL) expect(out.lines[0]).not.toContain(value);
		} finally {
			out.restore();
		}
	});
});
