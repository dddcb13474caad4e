import { fail, type RequestEvent } from '@sveltejs/kit';
import { redirect } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { requestMeta } from '$lib/server/http/meta';
import type { SigningLink } from '$lib/server/links/links';
import { openLink, openLinkView } from '$lib/server/links/open';
import { isDecided, type ApplicationListItem } from '$lib/server/onboarding';
import { merchantRepContact, orOffice, senderContact, senderRepNo } from '$lib/server/reps/contact';
import { businessName, findApplication } from '$lib/server/signing/application';
import { declineBeforeIdentity, identityCarries } from '$lib/server/signing/decline';
import { declineOnSignStep, readDecline, toDone } from '$lib/server/signing/decline-form';
import {
	currentStep,
	SESSION_COOKIE,
	sessionOnLink,
	setSessionCookie,
	STEP_PATHS,
	type SigningSession
} from '$lib/server/signing/session';
import { JUST_STARTED } from '$lib/server/signing/guard';
import { openSession, startSigningSession, type StartRefusal } from '$lib/server/signing/start';
import type { Actions, PageServerLoad } from './$types';

/** Start's refusals, and one the page alone says (it knows the earlier link had no address). */
const REFUSALS: Record<StartRefusal | 'identity_elsewhere_unsent', [number, string]> = {
	unavailable: [
		503,
		'We can’t reach the onboarding service right now. Wait a minute and press Start again.'
	],
	not_found: [
		404,
		'This application can no longer be found. Please contact your sales representative.'
	],
	decided: [
		409,
		'A decision is already on record for this application, so there is nothing left to sign. Your sales representative can tell you more.'
	],
	identity_elsewhere: [
		409,
		'Your identity was already confirmed using an earlier link that went to a different email address. For your security this link can’t continue: please contact your sales representative, who can send a link to that address or help you finish in person.'
	],
	// The earlier link was never emailed (made to copy, or by the operator API without an address):
	// no address a new link could go to, so not "send a link to that address".
	identity_elsewhere_unsent: [
		409,
		'Your identity was already confirmed using an earlier link, which wasn’t sent by email. For your security this link can’t continue: please contact your sales representative, who can help you finish on that link if it still works, or in person.'
	],
	identity_in_person: [
		409,
		'Your identity was already confirmed in person, with your sales representative, who checked your photo ID. For your security this link can’t continue: please contact your sales representative to finish signing with them in person.'
	]
};

/** Who sent the link (the email went in their name), else the application's rep, else the office. */
const repOf = async (link: SigningLink, item: ApplicationListItem | undefined) =>
	orOffice(
		app(),
		(await senderContact(app(), link)) ??
			(item ? await merchantRepContact(app(), link.officeId, Number(item.RepNo)) : null)
	);

/** The session this browser already has open on the link (a second tab, the email opened again). */
const ownSession = (event: RequestEvent, link: SigningLink) =>
	sessionOnLink(
		app().db,
		event.cookies.get(SESSION_COOKIE),
		link.id,
		app().config.SESSION_IDLE_MINUTES
	);

/** Where a session the browser goes on with stands, in the link page's words. */
const RESUMED_AT: Record<ReturnType<typeof currentStep>, string> = {
	terms: 'reading the agreement',
	identity: 'the identity questions',
	sign: 'signing',
	done: 'the confirmation page'
};
const resumedAt = (s: SigningSession | undefined) => (s ? RESUMED_AT[currentStep(s)] : null);

// Mail scanners open links too: this load reads and never writes (but for the rate-limit count,
// and the idle clock of a session this browser already has open on the link: ownSession).
export const load: PageServerLoad = async (event) => {
	const ctx = app();
	const { link, earlier, lockedUntil } = await openLinkView(ctx, event, event.params.token);
	let item: ApplicationListItem | undefined;
	try {
		item = await findApplication(ctx, link.officeId, link.applicationId);
	} catch {
		item = undefined;
	}
	// No Start button that could only fail: the page says why and whom to contact instead.
	const blocked: keyof typeof REFUSALS | null =
		item && isDecided(item)
			? 'decided'
			: earlier.kind === 'refused'
				? earlier.inPerson
					? 'identity_in_person'
					: earlier.email === null
						? 'identity_elsewhere_unsent'
						: 'identity_elsewhere'
				: null;
	return {
		business: item ? businessName(item) : null,
		expiresAt: link.expiresAt.toISOString(),
		// Times are shown in the office's zone until the page's script knows the merchant's.
		officeTimeZone: ctx.config.OFFICE_TIME_ZONE,
		blocked: blocked ? REFUSALS[blocked][1] : null,
		// Start would lead through the agreement to questions that cannot be asked yet.
		lockedUntil: lockedUntil?.toISOString() ?? null,
		// Opened again after the questions were answered (Back, the email again): Start reads the
		// agreement once more, then goes straight to signing.
		identityDone: earlier.kind === 'carries',
		// Started in this browser already: Start goes on from there (the step named).
		resumes: resumedAt(await ownSession(event, link)),
		rep: await repOf(link, item)
	};
};

/** The application as the service has it now; a failure to say here, in words for the merchant. */
async function currentApplication(event: RequestEvent) {
	const ctx = app();
	const link = await openLink(ctx, event, event.params.token!);
	try {
		const item = await findApplication(ctx, link.officeId, link.applicationId, { fresh: true });
		return { link, item, unreachable: false };
	} catch {
		return { link, item: undefined, unreachable: true };
	}
}

export const actions: Actions = {
	start: async (event) => {
		const ctx = app();
		const { link, lockedUntil } = await openLinkView(ctx, event, event.params.token);
		// A page loaded before the lock still offers Start: nothing is opened, and the page says
		// until when the questions are locked, as it would have if loaded now.
		if (lockedUntil) return fail(409, { lockedUntil: lockedUntil.toISOString(), final: true });
		const own = await ownSession(event, link);
		if (own) redirect(303, STEP_PATHS[currentStep(own)]);
		const started = await startSigningSession(ctx, {
			officeId: link.officeId,
			applicationId: link.applicationId,
			channel: 'link',
			linkId: link.id,
			repId: null,
			repNo: await senderRepNo(ctx, link),
			meta: requestMeta(event)
		});
		if (!started.ok) {
			const [status, message] = REFUSALS[started.reason];
			// Only an outage is worth pressing Start again for.
			const final = started.reason !== 'unavailable';
			return fail(status, { message, final, rep: await repOf(link, started.item) });
		}
		setSessionCookie(event.cookies, event.url, started.secret, 'link');
		// Marked as just started: a browser that does not keep the cookie is told so (requireStep).
		redirect(303, JUST_STARTED);
	},
	decline: async (event) => {
		const read = await readDecline(event);
		if (!read.ok) return read.failure;
		// Saying no does not wait for the service: while it is unreachable the decline is still kept.
		const { link, item } = await currentApplication(event);
		if (item && isDecided(item)) return fail(409, { message: REFUSALS.decided[1] });
		if (await identityCarries(app().db, { ...link, linkId: link.id, channel: 'link' })) {
			return declineOnSignStep(read.reason);
		}
		const meta = requestMeta(event);
		const repNo = await senderRepNo(app(), link);
		const { secret } = await app().db.transaction(async (tx) => {
			const created = await openSession(
				tx,
				{
					officeId: link.officeId,
					applicationId: link.applicationId,
					channel: 'link',
					linkId: link.id,
					repId: null,
					repNo,
					meta
				},
				item ?? null
			);
			await declineBeforeIdentity(
				app(),
				tx,
				created.session,
				{ stage: 'link', reason: read.reason },
				meta
			);
			return created;
		});
		// The done page says it is recorded; the session that shows it is already finished.
		setSessionCookie(event.cookies, event.url, secret, 'link');
		toDone();
	}
};
