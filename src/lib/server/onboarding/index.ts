export { createOnboardingClient, onboardingClientFor } from './client';
export type {
	AnswerSetResult,
	DecisionResult,
	OnboardingClient,
	OnboardingClientOptions,
	SalesTaxQuery
} from './client';
export { OnboardingError, officeUnknown, parseErrorBody } from './errors';
export type { OnboardingErrorKind, UpstreamErrorForm } from './errors';
export type { SendLogEntry } from './send';
export * from './schemas';
