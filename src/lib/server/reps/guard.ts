import { error, redirect, type RequestEvent } from '@sveltejs/kit';
import { app, type AppContext } from '$lib/server/app';
import type { ApplicationListItem } from '$lib/server/onboarding';
import { officeUnknown } from '$lib/server/onboarding/errors';
import { findApplication } from '$lib/server/signing/application';
import { addressLooksLikeSsn } from '$lib/server/signing/ssn';
import { REP_COOKIE, type SignedInRep } from './session';

/**
 * Where to return after signing in: only a rep page of ours, never another site, nor a path whose
 * dot segments (`/rep/../sign/terms`) the browser resolves to a page outside the console.
 */
export function safeNext(next: string | null): string {
	return next &&
		/^\/rep(\/[A-Za-z0-9._~/-]*)?(\?[A-Za-z0-9._~=&%+-]*)?$/.test(next) &&
		!next.includes('//') &&
		!/\/\.\.?(?=\/|\?|$)/.test(next) &&
		!holdsSsn(next)
		? next.replace(DOCUMENT, '')
		: '/rep';
}

/**
 * A document's address (a bookmark, the browser's history) returns to its application's page:
 * after sign-in the file would download with the sign-in form still on the screen, or (followed
 * by the page's script) be taken by the console's catch-all page for a page not found.
 */
const DOCUMENT = /\/[^/?]+\.pdf(\?.*)?$/;

/**
 * An address typed by hand (`/rep?q=123-45-6789`) is not carried into the sign-in page's own: an
 * SSN goes into no address. An application's number, of up to nine digits, is not one.
 */
function holdsSsn(next: string): boolean {
	return addressLooksLikeSsn(next.replace(/^\/rep\/applications\/\d+(?=[/?]|$)/, ''));
}

/**
 * Every rep page's load and every action call this first: without a signed-in rep, the answer is
 * the sign-in page (which brings them back here). A rep whose password the operator set
 * (`passwordTemporary`) is sent to the password page, the one page that takes them as they are
 * (`temporaryPassword`), to choose their own first; it brings them back here after.
 */
export function requireRep(
	event: RequestEvent,
	{ temporaryPassword = false }: { temporaryPassword?: boolean } = {}
): SignedInRep {
	const rep = event.locals.rep;
	if (rep && !(rep.passwordTemporary && !temporaryPassword)) return rep;
	const method = event.request.method;
	// Not an action's notice (?done=…): it answered that press, not the sign-in hours later.
	const search = new URLSearchParams(event.url.search);
	search.delete('done');
	const query = search.toString();
	const here = safeNext(`${event.url.pathname}${query ? `?${query}` : ''}`);
	if (rep) redirect(303, withNext('/rep/password', method === 'GET' ? here : '/rep'));
	const params = new URLSearchParams();
	// A cookie without a session: it ended (idle, too old, signed out elsewhere). A page's own
	// refresh or a click within the console without one: this browser signed out in another tab.
	if (event.cookies.get(REP_COOKIE)) params.set('ended', event.locals.repEnded?.reason ?? '1');
	else if (event.isDataRequest) params.set('gone', '1');
	// An action (send a link, revoke, hand over) that was not done: the sign-in page says so, and
	// brings the rep back to the page it was pressed on.
	if (method === 'POST') params.set('undone', '1');
	const next = method === 'GET' ? here : method === 'POST' ? safeNext(event.url.pathname) : '/rep';
	redirect(303, withNext('/rep/login', next, params));
}

/** A console page's address with `params`, and `next` unless it is the console's home. */
function withNext(path: string, next: string, params = new URLSearchParams()): string {
	if (next !== '/rep') params.set('next', next);
	const query = params.toString();
	return `${path}${query ? `?${query}` : ''}`;
}

export interface OfficeApplication {
	rep: SignedInRep;
	application: ApplicationListItem;
	applicationId: number;
}

/** The application the address names, or null: one address per application, no leading zero (050003 is not 50003). */
export function applicationIdOf(event: RequestEvent): number | null {
	const raw = event.params.applicationId ?? '';
	return /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : null;
}

const NOT_HERE = 'There is no such application in your office.';

/**
 * The one door to an application for a rep: it is looked up in the rep's own office's list, so
 * an application of another office is simply not found — 404, whatever the URL says. Pages,
 * actions and files under /rep/applications/[applicationId] all come through here, and take
 * office and application from what this returns, never from a form field.
 */
export async function requireOfficeApplication(
	event: RequestEvent,
	ctx: AppContext = app()
): Promise<OfficeApplication> {
	const rep = requireRep(event);
	const applicationId = applicationIdOf(event);
	if (applicationId === null) error(404, { message: NOT_HERE });
	let application: ApplicationListItem | undefined;
	try {
		// An action (send a link, hand the tablet over) asks the service afresh: a rep must not
		// send a link for an application decided a moment ago. A page or a file shows a copy no
		// older than the console's refresh, as the console's list does, so that the application
		// page's own refresh and a rep's reloads do not each call the service.
		const read = event.request.method === 'GET' || event.request.method === 'HEAD';
		application = await findApplication(
			ctx,
			rep.officeId,
			applicationId,
			read ? { maxAgeSeconds: ctx.config.CONSOLE_REFRESH_SECONDS } : { fresh: true }
		);
	} catch (err) {
		// As the console's list says it (rep/+page.server.ts): a 404 is the service's answer.
		if (officeUnknown(err)) {
			error(502, {
				title: 'The onboarding service doesn’t know this office',
				message: `The onboarding service says it has no office ${rep.officeId}, so this application can’t be shown. Tell whoever runs this portal: your account may name the wrong office, or the portal may be asking the service at the wrong address.`
			});
		}
		error(503, {
			message: 'The onboarding service isn’t answering right now. Try again in a minute.'
		});
	}
	if (!application || Number(application.OfficeNo) !== rep.officeId) {
		error(404, { message: NOT_HERE });
	}
	return { rep, application, applicationId };
}
