import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { IdentityQuestionSetSchema } from '../../onboarding/schemas';
import { API, passIdentity, questionsAndAnswers, useSandbox, withWrong } from '../spec-helpers';

const h = useSandbox();

const answer = (applicationId: number, QuestionSetID: string, Answers: unknown) =>
	h.call('POST', `${API}/answerset/${applicationId}`, {
		ApplicationID: applicationId,
		QuestionSetID,
		Answers
	});

describe('GET questionset', () => {
	it('returns a fresh set of five questions with five choices, the last NONE OF THE ABOVE', async () => {
		const first = await questionsAndAnswers(h, 50001);
		const second = await questionsAndAnswers(h, 50001);
		expect(first.status).toBe(200);
		expect(v.safeParse(IdentityQuestionSetSchema, first.set).success).toBe(true);
		expect(first.set).toMatchObject({ ApplicationID: 50001, TimeLimitSeconds: 120 });
		expect(first.id).toMatch(/^[0-9a-f]{16}$/);
		expect(second.id).not.toBe(first.id);
		const questions = first.set.Questions as { Choices: { Text: string }[] }[];
		expect(questions).toHaveLength(5);
		for (const q of questions) {
			expect(q.Choices).toHaveLength(5);
			expect(q.Choices[4]!.Text).toBe('NONE OF THE ABOVE');
		}
		expect(first.answers).toHaveLength(5);
	});

	it('uses the time limit set through the control API', async () => {
		await h.call('PUT', '/sandbox/_sandbox/settings', { timeLimitSeconds: 30 });
		const { set } = await questionsAndAnswers(h, 50001);
		expect(set.TimeLimitSeconds).toBe(30);
	});

	it('404 for an unknown application, or one of another office', async () => {
		expect((await h.call('GET', `${API}/questionset/59999`)).status).toBe(404);
		expect((await h.call('GET', '/sandbox/api/office/1208/questionset/50001')).status).toBe(404);
	});

	it('409 once identity is verified (50004 is seeded verified)', async () => {
		const res = await h.callJson('GET', `${API}/questionset/50004`);
		expect(res.status).toBe(409);
		expect(res.body.Message).toEqual(expect.any(String));
	});

	it('503 on both operations while the bureau is unavailable (50006)', async () => {
		expect((await h.call('GET', `${API}/questionset/50006`)).status).toBe(503);
		expect((await answer(50006, 'abcdef0123456789', [{ QuestionID: 1, ChoiceID: 1 }])).status).toBe(
			503
		);
	});
});

describe('POST answerset', () => {
	it('200 with four right answers of five, then 409 on questionset', async () => {
		const { id, answers } = await questionsAndAnswers(h, 50001);
		const res = await answer(50001, id, withWrong(answers, 1));
		expect(res.status).toBe(200);
		expect(await res.text()).toBe('');
		expect((await h.call('GET', `${API}/questionset/50001`)).status).toBe(409);
	});

	it('422 with three right answers, a failed attempt', async () => {
		const { id, answers } = await questionsAndAnswers(h, 50002);
		const res = await answer(50002, id, withWrong(answers, 2));
		expect(res.status).toBe(422);
		expect((await res.json()).Message).toEqual(expect.any(String));
	});

	it('422 whatever the answers for 50005, whose identity check always fails', async () => {
		const { id, answers } = await questionsAndAnswers(h, 50005);
		expect((await answer(50005, id, answers)).status).toBe(422);
	});

	it('410 for a set already answered, an unknown set, or another application’s set', async () => {
		const { id, answers } = await questionsAndAnswers(h, 50002);
		const other = await questionsAndAnswers(h, 50003);
		expect((await answer(50002, other.id, other.answers)).status).toBe(410);
		expect((await answer(50002, 'ffffffffffffffff', answers)).status).toBe(410);
		expect((await answer(50002, id, withWrong(answers, 3))).status).toBe(422);
		expect((await answer(50002, id, answers)).status).toBe(410);
	});

	it('410 after the time limit, and that counts as a failed attempt', async () => {
		const late = await questionsAndAnswers(h, 50001);
		h.clock.now = new Date(h.clock.now.getTime() + 121_000);
		expect((await answer(50001, late.id, late.answers)).status).toBe(410);
		const next = await questionsAndAnswers(h, 50001);
		expect((await answer(50001, next.id, withWrong(next.answers, 5))).status).toBe(422);
		expect((await h.call('GET', `${API}/questionset/50001`)).status).toBe(423);
	});

	it('423 on both operations after two failed attempts in 24 hours, then open again', async () => {
		const a = await questionsAndAnswers(h, 50005);
		const b = await questionsAndAnswers(h, 50005);
		expect((await answer(50005, a.id, a.answers)).status).toBe(422);
		expect((await answer(50005, b.id, b.answers)).status).toBe(422);
		const c = await h.call('GET', `${API}/questionset/50005`);
		expect(c.status).toBe(423);
		expect((await answer(50005, a.id, a.answers)).status).toBe(423);
		h.clock.now = new Date(h.clock.now.getTime() + 24 * 3600_000 + 1000);
		expect((await h.call('GET', `${API}/questionset/50005`)).status).toBe(200);
	});

	it('400 naming each bad field, and for an ApplicationID that is not the path’s', async () => {
		const bad = await h.callJson('POST', `${API}/answerset/50001`, {
			ApplicationID: 'x',
			QuestionSetID: 7,
			Answers: [{ QuestionID: 1 }]
		});
		expect(bad.status).toBe(400);
		expect(Object.keys(bad.body.ModelState as object)).toEqual(
			expect.arrayContaining(['ApplicationID', 'QuestionSetID', 'Answers[0].ChoiceID'])
		);
		const { id, answers } = await questionsAndAnswers(h, 50001);
		const mismatch = await h.callJson('POST', `${API}/answerset/50001`, {
			ApplicationID: 50002,
			QuestionSetID: id,
			Answers: answers
		});
		expect(mismatch.status).toBe(400);
		expect(mismatch.body.ModelState).toHaveProperty('ApplicationID');
		// The set is still open: a 400 spends nothing.
		expect((await answer(50001, id, answers)).status).toBe(200);
	});

	it('404 for an unknown application', async () => {
		expect((await answer(59999, 'abcdef0123456789', [{ QuestionID: 1, ChoiceID: 1 }])).status).toBe(
			404
		);
	});

	it('passIdentity helper works end to end', async () => {
		expect((await passIdentity(h, 50003)).status).toBe(200);
	});
});
