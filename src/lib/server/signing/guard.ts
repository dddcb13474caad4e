import { error, redirect, type RequestEvent } from '@sveltejs/kit';
import { currentStep, STEP_PATHS, type SigningSession, type Step } from './session';

/**
 * Every load and every action of a step calls this. A request for any other step than the
 * session's current one goes to the current one: no step is reached early, by URL or by a
 * replayed post, and a finished session cannot post again.
 */
export function requireStep(event: RequestEvent, step: Step): SigningSession {
	const session = event.locals.signing;
	if (!session) {
		error(401, {
			message:
				'Your signing session has ended or was never started. Open the link from your email again, or ask your rep for a new one.'
		});
	}
	const at = currentStep(session);
	if (at !== step) redirect(303, STEP_PATHS[at]);
	return session;
}
