import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { AppContext } from '$lib/server/app';
import { appendAudit, listAudit, verifyAuditChain } from '$lib/server/audit/audit';
import { parseConfig } from '$lib/server/config/config';
import { claimDecision } from '$lib/server/decisions/decisions';
import { testSealKey } from '$lib/server/evidence/testing';
import { queueDueReminders } from '$lib/server/links/reminders';
import { mailLinkForTest } from '$lib/server/links/testing';
import { deliverMailDue } from '$lib/server/mail/deliver';
import { enqueueMail } from '$lib/server/mail/outbox';
import { startSmtpServer } from '$lib/server/mail/test-smtp';
import { createOnboardingClient } from '$lib/server/onboarding';
import { upstreamCacheFor } from '$lib/server/onboarding/cache';
import { hit } from '$lib/server/ratelimit/ratelimit';
import { runRepsCli } from '$lib/server/reps/cli-testing';
import { resumeRepSession } from '$lib/server/reps/session';
import { signIn } from '$lib/server/reps/signin';
import { expectChainHeadWithSession } from '$lib/server/signing/testing';
import { midWindow } from '$lib/server/testing/clock';
import { openDatabase, schema, type Database } from '.';

/**
 * The same code on a PostgreSQL server, as two instances would share it: two pools, racing.
 * `.ci/run` starts a server and sets TEST_DATABASE_URL; CI fails rather than skip without one.
 */
const url = process.env.TEST_DATABASE_URL;
if (!url && process.env.CI) throw new Error('TEST_DATABASE_URL must be set in CI (see .ci/run).');

describe.runIf(url)('on a PostgreSQL server, two instances side by side', () => {
	let a: Database;
	let b: Database;

	beforeAll(async () => {
		// A plain client, not openDatabase: a database left by another migration history (a branch
		// whose migrations were renumbered) would fail to migrate before it could be wiped.
		const wipe = new pg.Client({ connectionString: url! });
		await wipe.connect();
		await wipe.query(
			'drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public;'
		);
		await wipe.end();
		// Both start at once: the advisory lock serializes the migrations.
		[a, b] = await Promise.all([openDatabase({ url: url! }), openDatabase({ url: url! })]);
	});
	afterAll(async () => {
		await a?.close();
		await b?.close();
	});

	it('outlives an idle connection the server ends (a restart, a reaper), and says so', async () => {
		const c = await openDatabase({ url: url! });
		const errors: string[] = [];
		const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => {
			errors.push(line);
		});
		try {
			const rowsOf = (r: unknown) => (r as { rows: Record<string, unknown>[] }).rows;
			const pid = rowsOf(await c.db.execute(sql`select pg_backend_pid() as pid`))[0]!.pid;
			// The connection is idle in the pool now; another one ends it, as a restart would.
			await a.db.execute(sql`select pg_terminate_backend(${pid})`);
			await expect.poll(() => errors.length).toBeGreaterThan(0);
			expect(errors[0]).toMatch(
				/^\[database\] PostgreSQL closed an idle connection; the next statement opens another \((57P01|CLOSED)\)$/
			);
			expect(errors[0]).not.toContain('terminating connection');
			expect(rowsOf(await c.db.execute(sql`select 1 as one`))).toEqual([{ one: 1 }]);
		} finally {
			spy.mockRestore();
			await c.close();
		}
	});

	it('migrates once and both instances see the same tables', async () => {
		expect(a.kind).toBe('postgres');
		const rows = await b.db.execute(
			sql`select count(*)::int as n from drizzle.__drizzle_migrations`
		);
		const journal = JSON.parse(
			readFileSync(resolve(process.cwd(), 'drizzle/meta/_journal.json'), 'utf8')
		) as { entries: unknown[] };
		// Each migration applied exactly once, though two instances raced to apply them.
		expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(journal.entries.length);
	});

	it('keeps one linear audit chain when both append at once', async () => {
		const writes = Array.from({ length: 20 }, (_, i) =>
			appendAudit(i % 2 ? a.db : b.db, {
				officeId: 1,
				applicationId: 7,
				type: 'test.event',
				data: { i }
			})
		);
		await Promise.all(writes);
		const events = await listAudit(a.db, 1, 7);
		expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
		expect(await verifyAuditChain(b.db, 1, 7)).toMatchObject({ ok: true, count: 20 });
	});

	it('counts rate-limit hits exactly across instances', async () => {
		const limit = { key: `pg:${randomUUID()}`, max: 10, windowSeconds: 60 };
		const at = new Date();
		const results = await Promise.all(
			Array.from({ length: 30 }, (_, i) => hit(i % 2 ? a.db : b.db, limit, at))
		);
		expect(results.filter((r) => r.ok)).toHaveLength(10);
	});

	it('lets exactly one instance take a decision’s delivery lease', async () => {
		const [d] = await a.db
			.insert(schema.decisions)
			.values({
				officeId: 1,
				applicationId: 8,
				sessionId: randomUUID(),
				isAccepted: true,
				body: {},
				ssnEnc: 'v1.x.y.z',
				ssnLast4: '0000'
			})
			.returning();
		const claims = await Promise.all(
			Array.from({ length: 10 }, (_, i) => claimDecision(i % 2 ? a.db : b.db, d!.id, 30_000))
		);
		expect(claims.filter(Boolean)).toHaveLength(1);
	});

	describe('mail, with an SMTP server', () => {
		let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
		const key = randomBytes(32);
		const ctxOf = (database: Database): AppContext => {
			const config = parseConfig({
				ONBOARDING_BASE_URL: 'http://127.0.0.1:9',
				SMTP_URL: smtp.url
			});
			return {
				config,
				database,
				db: database.db,
				onboarding: createOnboardingClient({ baseUrl: config.onboardingBaseUrl, timeoutMs: 1000 }),
				upstreamCache: upstreamCacheFor(config),
				encryptionKey: key,
				seal: async () => testSealKey(),
				operatorApiKey: undefined,
				sandbox: undefined
			};
		};
		beforeAll(async () => {
			smtp = await startSmtpServer();
		});
		afterAll(() => smtp.close());

		it('sends each message exactly once when two instances drain the outbox at once', async () => {
			const subjects = Array.from({ length: 8 }, (_, i) => `race ${i} ${randomUUID()}`);
			for (const subject of subjects) {
				await enqueueMail(a.db, key, {
					kind: 'link',
					officeId: 1,
					applicationId: 9,
					to: 'dana@blueheron.example',
					subject,
					text: subject,
					html: `<p>${subject}</p>`
				});
			}
			const runs = await Promise.all([
				deliverMailDue(ctxOf(a)),
				deliverMailDue(ctxOf(b)),
				deliverMailDue(ctxOf(a)),
				deliverMailDue(ctxOf(b))
			]);
			expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(8);
			const got = smtp.captured.map((c) => c.parsed.subject).filter((x) => subjects.includes(x!));
			expect(got.sort()).toEqual([...subjects].sort());
		});

		it('queues a due reminder exactly once when two instances run the scheduler at once', async () => {
			const t0 = new Date('2026-05-04T14:00:00Z');
			await mailLinkForTest(ctxOf(a), {
				officeId: 1,
				applicationId: 10,
				ttlHours: 240,
				now: t0
			});
			const day3 = new Date(t0.getTime() + 3 * 86_400_000);
			const counts = await Promise.all(
				Array.from({ length: 6 }, (_, i) => queueDueReminders(ctxOf(i % 2 ? a : b), day3))
			);
			expect(counts.reduce((n, c) => n + c, 0)).toBe(1);
			const queued = await b.db
				.select()
				.from(schema.mailOutbox)
				.where(
					and(eq(schema.mailOutbox.applicationId, 10), eq(schema.mailOutbox.kind, 'reminder'))
				);
			expect(queued).toHaveLength(1);
		});
	});

	it('reads a signing session with its application’s chain head in one statement', async () => {
		await expectChainHeadWithSession(a.db, 4711);
	});

	it('takes reps from npm run reps, and shares their sessions and sign-in limits', async () => {
		const added = await runRepsCli(
			['add', '--office', '1207', '--rep-no', '31', '--email', 'sam@example.com', '--name', 'Sam'],
			{ input: 'a pass phrase long enough\n', env: { DATABASE_URL: url! } }
		);
		expect(added.stderr).not.toContain('error');
		expect(added.code).toBe(0);
		const rules = { maxFailures: 2, maxFailuresPerAddress: 100, lockoutMinutes: 15 };
		// Failures are counted in a fixed window of the lockout's length: keep clear of its edge.
		midWindow(rules.lockoutMinutes * 60);
		onTestFinished(() => {
			vi.useRealTimers();
		});
		const meta = { ip: '192.0.2.1', userAgent: 'vitest' };
		const signedIn = await signIn(
			a.db,
			rules,
			{ email: 'SAM@example.com', password: 'a pass phrase long enough' },
			meta
		);
		expect(signedIn.ok).toBe(true);
		const secret = (signedIn as { secret: string }).secret;
		const resumed = await resumeRepSession(b.db, secret, { idleMinutes: 30, maxHours: 12 });
		// On a server too, the session's statement reads its (absent) hand-over.
		expect(resumed).toMatchObject({
			rep: { email: 'sam@example.com', officeId: 1207 },
			handover: null
		});
		// Failures on one instance lock the email on the other.
		await signIn(a.db, rules, { email: 'sam@example.com', password: 'wrong one, twice' }, meta);
		await signIn(b.db, rules, { email: 'sam@example.com', password: 'wrong one, twice' }, meta);
		expect(
			await signIn(
				a.db,
				rules,
				{ email: 'sam@example.com', password: 'a pass phrase long enough' },
				meta
			)
		).toMatchObject({ ok: false, reason: 'locked' });
	});
});
