import { describe, expect, it } from 'vitest';
import { exampleCreateRequest } from '../../onboarding/fixtures';
import { NONE_OF_THE_ABOVE, countCorrect, generateQuestions, streetOf } from './questions';

const doc = exampleCreateRequest() as unknown as Record<string, unknown>;

/** The facts a person reads off the demo data (the README's rule). */
const facts = [
	'WILLOW LN',
	'SPRINGFIELD',
	'1981',
	'62704',
	'PRAIRIE STATE BANK',
	'BLUE HERON BAKERY'
];

describe('identity questions', () => {
	it('abbreviates the street of an address without number or unit', () => {
		expect(streetOf('1482 Larkspur Lane')).toBe('LARKSPUR LN');
		expect(streetOf('40 Willow Lane, Apt 3')).toBe('WILLOW LN');
		expect(streetOf('731 Acequia Madre')).toBe('ACEQUIA MADRE');
		expect(streetOf('12B North Avenue #4')).toBe('NORTH AVE');
	});

	it('asks from the owner’s data: the right choice is the fact, or NONE OF THE ABOVE when it is absent', () => {
		let noneSeen = 0;
		for (let run = 0; run < 200; run++) {
			const { questions, answers } = generateQuestions(doc);
			expect(questions).toHaveLength(5);
			for (const q of questions) {
				const texts = q.Choices.map((c) => c.Text);
				expect(new Set(texts).size).toBe(5);
				const right = answers.find((a) => a.QuestionID === q.QuestionID)!;
				const chosen = texts[right.ChoiceID - 1]!;
				const fact = texts.find((t) => facts.includes(t));
				expect(chosen).toBe(fact ?? NONE_OF_THE_ABOVE);
				if (chosen === NONE_OF_THE_ABOVE) noneSeen++;
			}
		}
		// About one question in five.
		expect(noneSeen).toBeGreaterThan(100);
		expect(noneSeen).toBeLessThan(300);
	});

	it('counts each question once, by its first answer', () => {
		const right = [
			{ QuestionID: 1, ChoiceID: 2 },
			{ QuestionID: 2, ChoiceID: 5 }
		];
		expect(
			countCorrect(right, [
				{ QuestionID: 1, ChoiceID: 2 },
				{ QuestionID: 1, ChoiceID: 3 },
				{ QuestionID: 2, ChoiceID: 1 },
				{ QuestionID: 2, ChoiceID: 5 }
			])
		).toBe(1);
	});
});
