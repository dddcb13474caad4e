import { fail, redirect, type RequestEvent } from '@sveltejs/kit';
import * as v from 'valibot';
import { app } from '$lib/server/app';
import { listAudit, type AuditEvent } from '$lib/server/audit/audit';
import { decisionFor } from '$lib/server/decisions/decisions';
import { requestMeta } from '$lib/server/http/meta';
import { attention, passedWhere, stateDetail, stateLabel } from '$lib/server/console/labels';
import { inPersonOf } from '$lib/server/evidence/facts';
import { keepCopied, takeCopied } from '$lib/server/console/copied';
import { keepUndone, takeUndone, type UndoneForm } from '$lib/server/console/undone';
import {
	copyableLink,
	linkEnded,
	revokeLink,
	sendLink,
	type FinishOnCurrent,
	type LinkRefusal
} from '$lib/server/console/links';
import type { Pass } from '$lib/server/identity/attempts';
import { applicationState } from '$lib/server/console/list';
import { officeTime, serviceDate, shownTime } from '$lib/server/console/time';
import { timeline, trailRepNames } from '$lib/server/console/timeline';
import { mailEnabled, mailMode } from '$lib/server/mail/mode';
import { mailStatusFor } from '$lib/server/mail/status';
import { repContact } from '$lib/server/reps/contact';
import { applicationIdOf, requireOfficeApplication } from '$lib/server/reps/guard';
import { businessName, ownerName, serviceStatus } from '$lib/server/signing/application';
import { handOver, openHandovers, setTabletCookie } from '$lib/server/inperson/handover';
import { currentStep, setSessionCookie, STEP_PATHS } from '$lib/server/signing/session';
import type { SignedInRep } from '$lib/server/reps/session';
import { identityLockedUntil, type ConsoleState } from '$lib/server/console/state';
import type { StartRefusal } from '$lib/server/signing/start';
import { typedBack } from '$lib/server/signing/ssn';
import { CopyLinkSchema, HandOverSchema, RevokeLinkSchema, SendLinkSchema } from './schema';
import type { Actions, PageServerLoad } from './$types';

const DONE = ['sent', 'copied', 'revoked', 'none', 'unlocked'] as const;

const MAIL_OFF =
	'Mail is off on this portal (no SMTP server is set up), so nothing was sent. Make a link to copy below and send it yourself.';

const DECIDED = 'A decision is on record for this application, so no new link can be made.';

/**
 * A new link that could not carry the identity already confirmed (identity/attempts.ts): the
 * merchant's link would not let them start. Said before anything is sent. `onCurrent`: the pass
 * was made on the link that is out, and the merchant can finish on it (console/links.ts).
 */
function strandedPass(
	refusal: { passes: Pass[]; onCurrent: FinishOnCurrent },
	copy: boolean
): string {
	const { passes, onCurrent } = refusal;
	const finishOnIt =
		onCurrent === 'valid'
			? ' The link that is out still works: the merchant can finish on it.'
			: onCurrent === 'open'
				? ' The link that is out has expired, but the merchant started signing on it before then and is on it right now: they can still finish.'
				: '';
	const emailed = passes.find((p) => p.email);
	if (emailed) {
		return `Identity was already confirmed ${passedWhere(emailed)}, and ${copy ? 'a link to copy' : 'a link to another address'} can’t carry that over: the link would not let the merchant start. ${copy ? 'No link was made' : 'Nothing was sent'}.${finishOnIt} ${copy ? 'Email' : 'Send'} the link to ${emailed.email}, or finish the signing with the merchant in person.`;
	}
	const pass = passes.find((p) => p.linkId === null) ?? passes[0]!;
	return `Identity was already confirmed ${passedWhere(pass)}, which no new link can carry over: the link would not let the merchant start. ${copy ? 'No link was made' : 'Nothing was sent'}.${finishOnIt} ${onCurrent ? 'Or finish the signing with them' : 'Finish the signing with the merchant'} in person: hand them the tablet below.`;
}

/**
 * Said beside the send form once identity passed: which link, if any, can carry it over, and
 * first, when the pass was made on the link that is out and it still works, that the merchant
 * can finish on that one (a new link would end it).
 */
function passHint(
	pass: { linkId: string | null; email: string | null; carriesTo: string | null },
	link: { id: string; expired: boolean } | null,
	/** The merchant's session on the link is open: it goes on past the link's expiry. */
	live: boolean
): string {
	if (link && (!link.expired || live) && pass.linkId === link.id) {
		const finish = link.expired
			? 'it has expired, but the merchant’s session on it is still open and they can finish there'
			: 'the merchant can finish on it';
		return pass.email
			? `Identity was already confirmed on the link that is out, sent to ${pass.email}: ${finish}. A new link carries that over only if it goes to that address.`
			: `Identity was already confirmed on the link that is out: ${finish}. No new link can carry that over.`;
	}
	if (pass.email) {
		return `Identity was already confirmed ${passedWhere(pass)}: only a link to that address carries it over.`;
	}
	return pass.carriesTo
		? `Identity was already confirmed ${passedWhere(pass)}, and before that on a link sent to ${pass.carriesTo}: only a link to that address carries it over.`
		: `Identity was already confirmed ${passedWhere(pass)}: no new link can carry it over, so finish the signing in person.`;
}

/** The link changed since the rep's page was shown (another tab, a colleague, the office's systems). */
const CHANGED =
	'The link changed after this page was shown (a link was made or ended in another tab, or by someone else)';

/**
 * Send or Make a link refused as CHANGED. Says what pressing again would end: the merchant may
 * already hold that link, and its email, if still waiting in the outbox, is then not sent
 * (mail/deliver.ts).
 */
const MOVED = (copy: boolean) =>
	`${CHANGED}, so ${copy ? 'no link was made' : 'nothing was sent'}. Check the link the page now shows: ${copy ? 'making a link to copy' : 'sending again'} replaces it, so the merchant can no longer use it, and its email, if still waiting, is not sent.`;

/** Revoke refused as CHANGED. */
const MOVED_REVOKE = `${CHANGED}, so nothing was revoked. Check the link the page now shows, and revoke it if it should stop working.`;

/**
 * A tablet is in the merchant's hands (TabletRule, links/links.ts): a link made now would run
 * beside the signing at the counter.
 */
const TABLET_OUT =
	'A tablet is in the merchant’s hands for this application, so no link was made: a link would run beside the signing at the counter. Let them finish, or take the tablet back (“Return to rep”) first.';

function linkRefused(refusal: LinkRefusal, copy: boolean): string {
	if (refusal.reason === 'identity_elsewhere') return strandedPass(refusal, copy);
	if (refusal.reason === 'moved') return MOVED(copy);
	if (refusal.reason === 'tablet') return TABLET_OUT;
	return refusal.reason === 'decided' ? DECIDED : MAIL_OFF;
}

export const load: PageServerLoad = async (event) => {
	const { rep, application, applicationId } = await requireOfficeApplication(event);
	event.depends('rep:application');
	const ctx = app();
	const zone = ctx.config.OFFICE_TIME_ZONE;
	const [state, events, decision, repOnFile, mail] = await Promise.all([
		applicationState(ctx, application, rep.officeId),
		listAudit(ctx.db, rep.officeId, applicationId),
		decisionFor(ctx.db, rep.officeId, applicationId),
		repContact(ctx.db, rep.officeId, Number(application.RepNo)),
		mailStatusFor(ctx.db, rep.officeId, applicationId, 20)
	]);
	const repNames = await trailRepNames(ctx.db, rep.officeId, events);
	// Paused in person, before the pass or after it: the next hand-over picks that session up.
	const resumes = (state.kind === 'opened' || state.kind === 'identity_passed') && state.inPerson;
	// The merchant is signing on the link that is out (`now`), or was and may come back while the
	// session stays open (`open`): a new link (or Revoke, or a hand-over) would end that. The link
	// may have expired meanwhile: a session started in time goes on to its own limits.
	const linkInUse =
		state.kind === 'in_progress' && !state.inPerson && state.link
			? state.quiet
				? ('open' as const)
				: ('now' as const)
			: null;
	const asked = DONE.find((d) => d === event.url.searchParams.get('done')) ?? null;
	// A notice answers what was just done: one that no longer fits where the application stands
	// (Back to the send after a revoke, an old address opened again) is not shown.
	const done = asked && stillTrue(asked, state) ? asked : null;
	const copied = takeCopied(
		event.cookies,
		event.url,
		ctx.encryptionKey,
		ownerOf(rep, applicationId)
	);
	// What the rep had typed into a form posted after their session ended (keepIfEnded).
	const undone = takeUndone(
		event.cookies,
		event.url,
		ctx.encryptionKey,
		ownerOf(rep, applicationId)
	);
	// A decline's reason, shown under its own heading (so not in the state's sentence): one the
	// decision carries, or one the portal kept before identity. None for a service's own decision.
	const declineReason =
		decision && !decision.isAccepted
			? (decision.declineReason ?? '')
			: state.kind === 'declined' && !state.decided
				? (state.reason ?? '')
				: null;
	return {
		applicationId,
		business: businessName(application),
		legalName: application.Legal_Name,
		owner: ownerName(application),
		ownerEmail: application.Ownr1_Email,
		created: serviceDate(application.CreatedDate),
		serviceStatus: await serviceStatus(
			ctx,
			rep.officeId,
			application,
			decision?.deliveredAt,
			ctx.config.CONSOLE_REFRESH_SECONDS
		),
		repNo: Number(application.RepNo),
		repOnFile,
		zone,
		refreshSeconds: ctx.config.CONSOLE_REFRESH_SECONDS,
		idleMinutes: ctx.config.REP_SESSION_IDLE_MINUTES,
		kind: state.kind,
		label: stateLabel(state),
		detail: stateDetail(state, zone, { reason: declineReason === null }),
		attention: attention(state, zone),
		decided: state.decided,
		inPerson: state.inPerson,
		// "Hand to merchant" posts it back.
		tabletOut: tabletInHands(state),
		lockedUntil: shownTime(identityLockedUntil(state), zone),
		linkInUse,
		// Paused in person with the questions still open: a new link can start none until then.
		tabletQuestionsUntil:
			// To the second, as the state above it says it.
			state.kind === 'opened' && state.inPerson
				? shownTime(state.questionsUntil ?? null, zone, { seconds: true })
				: null,
		declineReason,
		// The evidence exists once a decision is recorded; the signed copy only for an acceptance.
		documents: {
			certificate: !!decision,
			signedCopy: decision?.isAccepted === true,
			// Decided on a rep's tablet, whose done page offers no download: the merchant was told to
			// ask the rep for the copies.
			inPerson:
				!!decision &&
				events.some(
					(e) =>
						e.sessionId === decision.sessionId &&
						e.type === 'session.started' &&
						inPersonOf(e.data) !== null
				),
			// Why there is no certificate: a decline before the identity check (no decision is
			// made, see signing/decline.ts), a decision the service holds from elsewhere, or none yet.
			absent: decision
				? null
				: state.decided
					? ('elsewhere' as const)
					: state.kind === 'declined'
						? ('declined_early' as const)
						: ('not_yet' as const)
		},
		link: state.link
			? {
					id: state.link.id,
					email: state.link.email,
					mail: state.link.mail?.status ?? null,
					created: shownTime(state.link.createdAt, zone),
					expires: shownTime(state.link.expiresAt, zone),
					expired: state.link.expired,
					viaApi: state.link.viaApi,
					demo: state.link.demo === true
				}
			: null,
		// A link to the address identity passed on carries the pass over: offer that one first.
		sendTo: state.identityPassed?.carriesTo ?? application.Ownr1_Email ?? '',
		// The photo ID noted at the paused session's hand-overs: offered again for the next one.
		idNoted: resumes ? idNoted(events) : null,
		resumes,
		// Identity confirmed, no decision yet: a hand-over goes on without the questions.
		passed: !!state.identityPassed && !state.decided,
		// Only that address: said beside the field, before the rep sends a link that can't.
		passHint:
			state.identityPassed && !state.decided
				? passHint(state.identityPassed, state.link, linkInUse !== null)
				: null,
		// The address a new link must go to for a pass to carry over, if any: none, and the console
		// offers no link at all (one could only be refused).
		passEmail: (!state.decided && state.identityPassed?.carriesTo) || null,
		done,
		undone,
		// A link just made to copy, on the one view the action's redirect leads to.
		copied: copied ? { url: copied.url, expires: shownTime(copied.expiresAt, zone) } : null,
		timeline: timeline(events, zone, repNames),
		mailOn: mailEnabled(ctx),
		// Embedded defaults: mail "sent" went to the development mailbox, not to anyone's inbox.
		mailbox: mailMode(ctx.config) === 'mailbox',
		mail: mail.map((m) => ({
			id: m.id,
			subject: m.subject,
			// A note to the rep names its recipient when it goes out (mail/deliver.ts): until then, whom.
			to: m.to ?? (m.kind === 'link' || m.kind === 'reminder' ? null : 'the rep'),
			status: m.status,
			problem: m.problem,
			// A link email or reminder whose link is no longer the usable one: how it ended.
			ended:
				m.linkId !== null && m.linkId !== (state.link?.id ?? null)
					? linkEnded(m.linkId, events, state.decided)
					: null,
			at: shownTime(m.sentAt ?? m.createdAt, zone),
			next: m.nextAttemptAt && m.attempts > 0 ? shownTime(m.nextAttemptAt, zone) : null
		}))
	};
};

/**
 * The ID type and last characters the rep noted for the newest in-person session, at its latest
 * hand-over that noted any: a later hand-over picks that session up, and its form starts from them.
 */
function idNoted(events: AuditEvent[]): { idType: string; idLast4: string } | null {
	const attested = events.filter(
		(e) =>
			(e.type === 'session.started' || e.type === 'session.handed_over') &&
			inPersonOf(e.data) !== null
	);
	const session = attested.at(-1)?.sessionId;
	for (const e of attested.filter((a) => a.sessionId === session).reverse()) {
		const { idType, idLast4 } = inPersonOf(e.data)!;
		if (idType || idLast4) return { idType: idType ?? '', idLast4: idLast4 ?? '' };
	}
	return null;
}

/** Whether the notice of an action (?done=…) still says how things are. */
function stillTrue(done: (typeof DONE)[number], state: ConsoleState): boolean {
	if (done === 'sent') return !!state.link?.email;
	if (done === 'revoked' || done === 'none') return !state.link;
	return true;
}

const ownerOf = (rep: SignedInRep, applicationId: number) => ({
	officeId: rep.officeId,
	applicationId,
	repId: rep.id
});

/**
 * A form posted once the rep's session had ended: requireRep answers with the sign-in page, and
 * what the form held is kept for that rep, to be filled in again when they are back (undone.ts).
 */
function keepIfEnded(event: RequestEvent, form: UndoneForm): void {
	const ended = event.locals.repEnded;
	const applicationId = applicationIdOf(event);
	if (event.locals.rep || !ended || applicationId === null) return;
	keepUndone(
		event.cookies,
		event.url,
		app().encryptionKey,
		{ officeId: ended.officeId, applicationId, repId: ended.repId },
		form
	);
}

const after = (event: RequestEvent, done: (typeof DONE)[number], hash = '') =>
	redirect(303, `${event.url.pathname}?done=${done}${hash}`);

/**
 * The hand-over whose tablet is in the merchant's hands, by the rule makeLink refuses a link
 * under (links.ts), if one is.
 */
const tabletInHands = (state: ConsoleState) =>
	(state.kind === 'in_progress' || state.kind === 'identity_locked') && state.inPerson
		? (state.tablet ?? null)
		: null;

const TABLET_SINCE =
	'Nothing was handed over: a tablet went to the merchant for this application after this page was shown. The page now shows it; hand over again only if you mean to take the signing from it.';

const SIGNING_ENDED =
	'Nothing was handed over: the merchant signed or declined on their tablet just as you pressed. The page now shows where the application stands.';

const HAND_OVER_REFUSED: Record<StartRefusal, [number, string]> = {
	unavailable: [503, 'The onboarding service isn’t answering right now. Try again in a minute.'],
	not_found: [404, 'There is no such application in your office.'],
	decided: [
		409,
		'A decision is on record for this application, so there is nothing left to sign in person. The page now shows where it stands.'
	],
	// In person an earlier pass always carries (the rep checked the photo ID): not expected here.
	identity_elsewhere: [409, 'Identity was confirmed elsewhere; this application can’t continue.'],
	identity_in_person: [409, 'Identity was confirmed elsewhere; this application can’t continue.']
};

export const actions: Actions = {
	handOver: async (event) => {
		const form = Object.fromEntries(await event.request.formData());
		// As typed, less what looks like an SSN: a refused ID type is shown back without one.
		const kept = {
			action: 'handOver' as const,
			idType: typedBack(form, 'idType', 40),
			idLast4: typedBack(form, 'idLast4', 40)
		};
		// Not a whole ID number, which the form would refuse as too long: only what it can note.
		keepIfEnded(event, { ...kept, idLast4: kept.idLast4.length <= 4 ? kept.idLast4 : '' });
		const { rep, applicationId, application } = await requireOfficeApplication(event);
		const parsed = v.safeParse(HandOverSchema, form);
		if (!parsed.success) {
			// Not a field the rep filled in: said above the form, as the links' forms say it.
			const stale = parsed.issues.find((i) =>
				['shownTablet', 'tabletShown'].includes(v.getDotPath(i) ?? '')
			);
			if (stale) return fail(400, { ...kept, errors: {}, error: stale.message });
			const errors: Record<string, string> = {};
			for (const issue of parsed.issues)
				errors[v.getDotPath(issue) ?? 'photoIdChecked'] ??= issue.message;
			// Never more than four back to the page: a whole ID number, refused as too long, is not
			// shown again.
			const whole = parsed.issues.some(
				(i) => i.type === 'max_length' && v.getDotPath(i) === 'idLast4'
			);
			return fail(400, { ...kept, ...(whole ? { idLast4: '' } : {}), errors, error: null });
		}
		// Read before the state: a tablet handed over after this is not among them, and the
		// hand-over below is undone rather than take it unseen.
		const known = await openHandovers(app().db, rep.officeId, applicationId);
		// The page offers no hand-over while the identity questions are locked; a post from an
		// older page is refused the same way, before the merchant meets the lock on the tablet.
		const state = await applicationState(app(), application, rep.officeId);
		const lockedUntil = identityLockedUntil(state);
		if (state.kind === 'identity_locked' || lockedUntil) {
			const until = lockedUntil
				? ` until ${officeTime(lockedUntil, app().config.OFFICE_TIME_ZONE)}`
				: '';
			return fail(409, {
				...kept,
				errors: {},
				error: `The identity questions are locked${until}, on every device: a signing in person would stop at them too. Start it after that.`
			});
		}
		// A tablet handed over since the page was shown (a colleague's, at the counter) is not taken
		// from the merchant unseen, as a link made since is not replaced unseen: the page is shown
		// again with it, and says what a hand-over here does to it. The one the page showed is
		// taken, as it said it would be.
		const inHands = tabletInHands(state);
		const { shownTablet, tabletShown } = parsed.output;
		// A page from before the id said only whether it showed one: the one in hands now, as far
		// as it can tell (a page already open across an update hands over as it did before it).
		const shown = shownTablet !== undefined ? shownTablet : tabletShown === 'yes' ? inHands : null;
		const moved = fail(409, { ...kept, errors: {}, error: TABLET_SINCE, moved: true });
		if (inHands && inHands !== shown) return moved;
		const result = await handOver(app(), {
			rep,
			applicationId,
			idType: parsed.output.idType,
			idLast4: parsed.output.idLast4,
			meta: requestMeta(event),
			known: known.map((h) => h.id)
		});
		if (!result.ok) {
			if (result.reason === 'moved') return moved;
			if (result.reason === 'changed') {
				return fail(409, { ...kept, errors: {}, error: SIGNING_ENDED, moved: true });
			}
			const [status, error] = HAND_OVER_REFUSED[result.reason];
			return fail(status, { ...kept, errors: {}, error });
		}
		setSessionCookie(event.cookies, event.url, result.signingSecret, 'in_person');
		setTabletCookie(event.cookies, event.url, result.tabletSecret);
		redirect(303, STEP_PATHS[currentStep(result.session)]);
	},
	send: async (event) => {
		const form = Object.fromEntries(await event.request.formData());
		const typed = typedBack(form, 'email', 254);
		keepIfEnded(event, { action: 'send', email: typed });
		const { rep, application } = await requireOfficeApplication(event);
		const parsed = v.safeParse(SendLinkSchema, form);
		if (!parsed.success) {
			return fail(400, { action: 'send' as const, email: typed, error: parsed.issues[0].message });
		}
		const sent = await sendLink(app(), {
			rep,
			application,
			meta: requestMeta(event),
			email: parsed.output.email,
			shown: parsed.output.shown,
			origin: event.url.origin
		});
		if (!sent.ok) {
			return fail(409, {
				action: 'send' as const,
				email: typed,
				error: linkRefused(sent, false),
				moved: sent.reason === 'moved'
			});
		}
		after(event, 'sent');
	},
	copy: async (event) => {
		keepIfEnded(event, { action: 'copy' });
		const { rep, application, applicationId } = await requireOfficeApplication(event);
		const parsed = v.safeParse(CopyLinkSchema, Object.fromEntries(await event.request.formData()));
		if (!parsed.success) {
			return fail(400, { action: 'copy' as const, error: parsed.issues[0].message });
		}
		const made = await copyableLink(app(), {
			rep,
			application,
			meta: requestMeta(event),
			shown: parsed.output.shown,
			origin: event.url.origin
		});
		if (!made.ok) {
			return fail(409, {
				action: 'copy' as const,
				error: linkRefused(made, true),
				moved: made.reason === 'moved'
			});
		}
		// Shown once, on the page this redirect leads to: the portal keeps the token's hash, not
		// the token. Answering the post itself would make a new link at every reload.
		keepCopied(event.cookies, event.url, app().encryptionKey, ownerOf(rep, applicationId), made);
		after(event, 'copied', '#copied');
	},
	revoke: async (event) => {
		keepIfEnded(event, { action: 'revoke' });
		const { rep, application } = await requireOfficeApplication(event);
		const parsed = v.safeParse(
			RevokeLinkSchema,
			Object.fromEntries(await event.request.formData())
		);
		if (!parsed.success) {
			return fail(400, { action: 'revoke' as const, error: parsed.issues[0].message });
		}
		const done = await revokeLink(app(), {
			rep,
			application,
			meta: requestMeta(event),
			shown: parsed.output.shown
		});
		if (done === 'moved') {
			return fail(409, { action: 'revoke' as const, error: MOVED_REVOKE, moved: true });
		}
		after(event, done);
	}
};
