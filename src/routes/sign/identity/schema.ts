import type { IdentityQuestionSet } from '$lib/server/onboarding';

export interface AnswerParse {
	answers: { QuestionID: string; ChoiceID: string }[];
	selected: Record<string, string>;
	errors: Record<string, string>;
}

/**
 * Reads one radio group per question. The choice must be one this set offered for that question;
 * anything else is treated as unanswered, so a forged post cannot smuggle in other ids.
 */
export function parseAnswers(form: FormData, set: IdentityQuestionSet): AnswerParse {
	const answers: AnswerParse['answers'] = [];
	const selected: Record<string, string> = {};
	const errors: Record<string, string> = {};
	for (const q of set.Questions) {
		const qid = String(q.QuestionID);
		// One radio group sends one value: two different ones are no choice (a forged post), and
		// must not be sent as either, to count as a try.
		const values = new Set(form.getAll(`q-${qid}`));
		if (values.size > 1) {
			errors[qid] = 'Choose only one answer for this question.';
			continue;
		}
		const value = form.get(`q-${qid}`);
		const choice =
			typeof value === 'string' ? q.Choices.find((c) => String(c.ChoiceID) === value) : undefined;
		if (!choice) {
			errors[qid] = 'Choose one answer for this question.';
			continue;
		}
		selected[qid] = String(choice.ChoiceID);
		answers.push({ QuestionID: qid, ChoiceID: String(choice.ChoiceID) });
	}
	return { answers, selected, errors };
}
