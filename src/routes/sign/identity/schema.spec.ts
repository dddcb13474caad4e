import { describe, expect, it } from 'vitest';
import type { IdentityQuestionSet } from '$lib/server/onboarding';
import { parseAnswers } from './schema';

const set = {
	ApplicationID: 50001,
	QuestionSetID: 'qs-1',
	TimeLimitSeconds: null,
	Questions: [
		{
			QuestionID: 1,
			Prompt: 'Which street?',
			Choices: [
				{ ChoiceID: 11, Text: 'Elm' },
				{ ChoiceID: 12, Text: 'Oak' }
			]
		},
		{
			QuestionID: 2,
			Prompt: 'Which year?',
			Choices: [
				{ ChoiceID: 21, Text: '1999' },
				{ ChoiceID: 22, Text: '2004' }
			]
		}
	]
} as IdentityQuestionSet;

const form = (pairs: [string, string][]) => {
	const f = new FormData();
	for (const [k, v] of pairs) f.append(k, v);
	return f;
};

describe('identity answers as posted', () => {
	it('reads one offered choice per question', () => {
		expect(
			parseAnswers(
				form([
					['q-1', '12'],
					['q-2', '21']
				]),
				set
			)
		).toEqual({
			answers: [
				{ QuestionID: '1', ChoiceID: '12' },
				{ QuestionID: '2', ChoiceID: '21' }
			],
			selected: { 1: '12', 2: '21' },
			errors: {}
		});
	});

	it('sends nothing for a question with a choice it did not offer, none, or two different ones', () => {
		const parsed = parseAnswers(
			form([
				['q-1', '11'],
				['q-1', '12'],
				['q-2', '99']
			]),
			set
		);
		expect(parsed.answers).toEqual([]);
		expect(parsed.errors).toEqual({
			1: 'Choose only one answer for this question.',
			2: 'Choose one answer for this question.'
		});
		// The same choice twice is still that choice.
		expect(
			parseAnswers(
				form([
					['q-1', '11'],
					['q-1', '11'],
					['q-2', '22']
				]),
				set
			).errors
		).toEqual({});
	});
});
