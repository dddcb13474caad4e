import { afterAll, beforeAll, beforeEach } from 'vitest';
import { openMemoryDatabase, type Database } from '../db';
import { createSandbox, type Sandbox } from '.';

/** Test harness: one in-memory database per spec file, reset (and reseeded) before each test. */

export const ORIGIN = 'http://portal.test';
export const API = '/sandbox/api/office/1207';

export interface Harness {
	database: Database;
	sandbox: Sandbox;
	/** The sandbox's clock: tests move it forward to expire question sets. */
	clock: { now: Date };
	/** The key of the SSN digests the sandbox keeps. */
	ssnKey: Buffer;
	call(
		method: string,
		path: string,
		body?: unknown,
		headers?: Record<string, string>
	): Promise<Response>;
	/** `call` and parse the JSON body. */
	callJson<T = Record<string, unknown>>(
		method: string,
		path: string,
		body?: unknown
	): Promise<{ status: number; body: T }>;
}

export function useSandbox(opts: { authValue?: string; authHeader?: string } = {}): Harness {
	const h = {
		clock: { now: new Date('2026-11-02T15:00:00Z') },
		ssnKey: Buffer.alloc(32, 0x5a)
	} as Harness;
	beforeAll(async () => {
		h.database = await openMemoryDatabase();
		h.sandbox = createSandbox({
			db: h.database.db,
			now: () => h.clock.now,
			ssnKey: h.ssnKey,
			...opts
		});
	});
	beforeEach(async () => {
		h.clock.now = new Date('2026-11-02T15:00:00Z');
		const res = await h.sandbox.handle(
			new Request(`${ORIGIN}/sandbox/_sandbox/reset`, { method: 'POST' })
		);
		if (res.status !== 204) throw new Error(`reset failed: ${res.status}`);
	});
	afterAll(async () => {
		await h.database?.close();
	});
	h.call = (method, path, body, headers = {}) =>
		h.sandbox.handle(
			new Request(`${ORIGIN}${path}`, {
				method,
				headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
				body:
					body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
			})
		);
	h.callJson = async (method, path, body) => {
		const res = await h.call(method, path, body);
		const text = await res.text();
		return { status: res.status, body: text ? JSON.parse(text) : null };
	};
	return h;
}

type Obj = Record<string, unknown>;

/** Fetches a question set and the right answers for it (through the control API). */
export async function questionsAndAnswers(h: Harness, applicationId: number) {
	const set = await h.callJson<Obj>('GET', `${API}/questionset/${applicationId}`);
	const id = set.body.QuestionSetID as string;
	const right = await h.callJson<{ Answers: { QuestionID: number; ChoiceID: number }[] }>(
		'GET',
		`/sandbox/_sandbox/answers/${id}`
	);
	return { set: set.body, status: set.status, id, answers: right.body?.Answers ?? [] };
}

/** Answers with `wrong` of the five questions answered wrongly. */
export function withWrong(answers: { QuestionID: number; ChoiceID: number }[], wrong: number) {
	return answers.map((a, i) => (i < wrong ? { ...a, ChoiceID: (a.ChoiceID % 5) + 1 } : a));
}

export async function passIdentity(h: Harness, applicationId: number) {
	const { id, answers } = await questionsAndAnswers(h, applicationId);
	return h.call('POST', `${API}/answerset/${applicationId}`, {
		ApplicationID: applicationId,
		QuestionSetID: id,
		Answers: answers
	});
}
