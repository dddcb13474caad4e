import { describe, expect, it } from 'vitest';
import { OnboardingError, parseErrorBody } from './errors';

describe('parseErrorBody', () => {
	it.each([
		['', 'empty'],
		['  \n', 'empty'],
		['Something broke for 123456789', 'text'],
		['<html><body>502</body></html>', 'text'],
		['"a JSON string"', 'text'],
		['[1, 2]', 'text'],
		['{"error": "no Message"}', 'text'],
		['{"Message": "An error has occurred."}', 'message'],
		['{"Message": "The request is invalid.", "ModelState": {"x": ["bad"]}}', 'model-state']
	])('%j is %s', (body, form) => {
		expect(parseErrorBody(body).form).toBe(form);
	});

	it('keeps only string reasons, and a single string as a list', () => {
		const body = JSON.stringify({
			Message: 'The request is invalid.',
			ModelState: { a: ['one', 2, 'three'], b: 'solo', c: [null] }
		});
		expect(parseErrorBody(body).fieldErrors).toEqual({ a: ['one', 'three'], b: ['solo'] });
	});
});

describe('OnboardingError', () => {
	it('composes a message from the operation and status only', () => {
		const err = new OnboardingError({ kind: 'http', operation: 'getQuestionSet', status: 423 });
		expect(err.message).toBe('Onboarding Service getQuestionSet failed with HTTP 423: locked');
		expect(err).toMatchObject({ name: 'OnboardingError', fieldErrors: {}, fieldPath: undefined });
		expect(new OnboardingError({ kind: 'timeout', operation: 'x' }).status).toBe(0);
		expect(new OnboardingError({ kind: 'schema', operation: 'x', fieldPath: 'A.B' }).message).toBe(
			'Onboarding Service x answered with an unexpected shape at A.B'
		);
	});
});
