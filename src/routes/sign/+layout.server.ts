import { app } from '$lib/server/app';
import { endedSessionRep, sessionRep } from '$lib/server/reps/contact';
import { currentStep } from '$lib/server/signing/session';
import type { LayoutServerLoad } from './$types';

export const load: LayoutServerLoad = async ({ locals }) => {
	const s = locals.signing;
	return {
		// On a rep's tablet: the "Return to rep" control and the idle lock.
		inPerson: locals.handover
			? { idleSeconds: app().config.IN_PERSON_IDLE_SECONDS, locked: !!locals.handover.lockedAt }
			: null,
		business: s?.businessName ?? null,
		step: s ? currentStep(s) : null,
		channel: s?.channel ?? null,
		// Times are shown in the office's zone until the page's script knows the merchant's.
		officeTimeZone: app().config.OFFICE_TIME_ZONE,
		// A session that has ended still names its rep: the error page says whom to ask (whoever
		// ended its link, such as the rep who took the signing in person, else the session's rep).
		rep: s ? await sessionRep(app(), s) : await endedSessionRep(app(), locals.signingEnded)
	};
};
