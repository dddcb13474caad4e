import { describe, expect, it } from 'vitest';
import { currentStep, type SigningSession } from './session';

const base = {
	decisionId: null,
	identityPassedAt: null,
	consentAt: null
} as unknown as SigningSession;
const at = new Date();

describe('step order', () => {
	it('follows what is recorded, in order', () => {
		expect(currentStep(base)).toBe('terms');
		expect(currentStep({ ...base, consentAt: at })).toBe('identity');
		expect(currentStep({ ...base, consentAt: at, identityPassedAt: at })).toBe('sign');
		expect(currentStep({ ...base, consentAt: at, identityPassedAt: at, decisionId: 'd' })).toBe(
			'done'
		);
	});
});
