import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxServer, type SandboxServer } from '$lib/server/sandbox/testing';
import { createSession, type SigningSession } from '$lib/server/signing/session';
import { testContext, testSessionInput } from '$lib/server/testing/app';
import { TEST_DATABASE_URL } from '$lib/server/testing/postgres';
import { twoInstancePools } from '$lib/server/testing/two-pools';
import type { AppContext } from '$lib/server/app';
import { identityState, startAttempt, submitAnswers, type OpenAttempt } from './attempts';

const meta = { ip: '127.0.0.1', userAgent: 'vitest' };
const MAX = 2;

describe.runIf(TEST_DATABASE_URL)('identity attempts on a PostgreSQL server, two instances', () => {
	let sandbox: SandboxServer;
	const pools = twoInstancePools();
	let instances: AppContext[] = [];

	beforeAll(async () => {
		sandbox = await startSandboxServer();
		const key = randomBytes(32);
		instances = pools.map((p) =>
			testContext(p, sandbox.baseUrl, { IDENTITY_MAX_ATTEMPTS: String(MAX) }, key)
		);
	});
	afterAll(async () => {
		await sandbox?.close();
	});

	const control = async (path: string) =>
		(await fetch(`${sandbox.baseUrl}/_sandbox/${path}`)).json() as Promise<unknown>;

	async function wrongAnswers(o: OpenAttempt) {
		const right = (await control(`answers/${o.questions.QuestionSetID}`)) as {
			Answers: { QuestionID: number; ChoiceID: number }[];
		};
		return o.questions.Questions.map((q) => {
			const good = right.Answers.find((a) => String(a.QuestionID) === String(q.QuestionID));
			const bad = q.Choices.find((c) => String(c.ChoiceID) !== String(good?.ChoiceID))!;
			return { QuestionID: q.QuestionID, ChoiceID: bad.ChoiceID };
		});
	}

	/** What one merchant's browser does: Start, then (if questions came) wrong answers at once. */
	async function tryOnce(ctx: AppContext, s: SigningSession) {
		const started = await startAttempt(ctx, s, meta);
		if (started.result === 'started' || started.result === 'open') {
			const { open } = await identityState(ctx, s, meta);
			if (open) await submitAnswers(ctx, s, open, await wrongAnswers(open), meta);
		}
		return started.result;
	}

	it('eight sessions on one link racing across two instances forward at most the allowed answer sets', async () => {
		const linkId = randomUUID();
		const sessions: SigningSession[] = [];
		for (let i = 0; i < 8; i++) {
			const { session } = await createSession(pools[i % 2]!.db, {
				...testSessionInput(50001, 1207, linkId),
				ip: `198.51.100.${i}`
			});
			sessions.push(session);
		}
		const rounds: string[][] = [];
		for (let round = 0; round < 4; round++) {
			rounds.push(await Promise.all(sessions.map((s, i) => tryOnce(instances[i % 2]!, s))));
		}
		// Every try was used, once: the sessions that did not get questions were told to wait or
		// that the application is locked. (How the tries fall into rounds depends on timing: on a
		// busy machine the first try can be judged before a slower session's Start arrives, and
		// that session then rightly gets the second try in the same round.)
		expect(rounds[0]).toContain('started');
		expect(rounds.flat().filter((r) => r === 'started')).toHaveLength(MAX);
		for (const r of rounds.flat()) expect(['started', 'busy', 'locked']).toContain(r);
		const forwarded = (await control('requests?operation=answerset')) as unknown[];
		expect(forwarded).toHaveLength(MAX);
		// And now the application is locked for everyone, on either instance.
		for (const [i, s] of sessions.entries()) {
			expect((await startAttempt(instances[i % 2]!, s, meta)).result).toBe('locked');
		}
	});
});
