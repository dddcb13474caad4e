import { randomUUID } from 'node:crypto';
import { env } from '$env/dynamic/private';
import { building, dev } from '$app/environment';
import {
	json,
	redirect,
	type Handle,
	type HandleServerError,
	type RequestEvent,
	type ServerInit
} from '@sveltejs/kit';
import { sequence } from '@sveltejs/kit/hooks';
import { app, startApp } from '$lib/server/app';
import { limitHeapGrowth } from '$lib/server/app/heap';
import { ConfigError } from '$lib/server/config/config';
import { MigrationsMissingError } from '$lib/server/db';
import { DataDirBusyError } from '$lib/server/db/lock';
import { databaseProblem, databaseUnavailable } from '$lib/server/db/problems';
import { compress } from '$lib/server/http/compress';
import { foreignFormMessage, isForeignFormPost, logOtherOwnOrigin } from '$lib/server/http/csrf';
import { actionName, checkRequest, isApiPath, type InputProblem } from '$lib/server/http/inputs';
import { GET_ONLY_ALLOW, GET_ONLY_ROUTES, notAcceptedResponse } from '$lib/server/http/methods';
import { authorizeOperator, isOperatorApiPath } from '$lib/server/http/operator-auth';
import { plainPath } from '$lib/server/http/plain-path';
import {
	problemResponse,
	refusalPage,
	wantsActionResult,
	type SigningContact
} from '$lib/server/http/problem';
import { pageStatus } from '$lib/server/http/status';
import { startWorker } from '$lib/server/decisions/worker';
import { isRepPath } from '$lib/paths';
import { logError } from '$lib/server/log/log';
import { inWords } from '$lib/server/log/outage';
import {
	LOCK_PATH,
	TABLET_COOKIE,
	findHandover,
	keepHandover,
	type Handover,
	holdsTabletKey,
	lockHandover,
	reissueTabletKey,
	setTabletCookie,
	tabletCookieHeader
} from '$lib/server/inperson/handover';
import {
	SESSION_COOKIE,
	STEP_PATHS,
	currentStep,
	openSessionById,
	findSession
} from '$lib/server/signing/session';
import { refusedPostRep } from '$lib/server/links/open';
import { endedSessionRep, sessionRep } from '$lib/server/reps/contact';
import { REP_COOKIE, resumeRepSession, whyRepSessionEnded } from '$lib/server/reps/session';
import { UNATTENDED_COOKIE } from '$lib/unattended';

/** Why adapter-node could not listen, in our words, by the error's code. */
function listenProblem(code: string | undefined): string | undefined {
	const port = env.PORT || 3000;
	switch (code) {
		case 'EADDRINUSE':
			return `port ${port} is in use by another process: stop it, or choose another PORT.`;
		case 'EADDRNOTAVAIL':
			return `HOST ${env.HOST} is not an address of this machine: give one it has, or 0.0.0.0 for all of them.`;
		case 'EACCES':
			return `port ${port} needs privileges this process does not have: choose a PORT above 1023, and let a proxy take the low one.`;
	}
	return undefined;
}

export const init: ServerInit = async () => {
	if (building) return;
	limitHeapGrowth();
	try {
		const ctx = await startApp(env, { devPort: dev ? Number(env.PORT ?? 5173) : undefined });
		if (!dev && ctx.config.sandbox && !env.HOST) {
			// `node build` run directly: adapter-node listens on every interface.
			console.warn(
				'[start] the sandbox on every network interface: its control API and the dev mailbox are reachable from the network. Start with `npm start` or `npm run serve`, or set HOST=127.0.0.1.'
			);
		}
		let sealing: Promise<unknown> | undefined;
		const openSeal = () =>
			(sealing = ctx.seal().catch((err) => {
				if (err instanceof ConfigError) console.error(err.message);
				else logError('start', 'the seal could not be opened', err);
				process.exit(1);
			}));
		// The operator's own seal is opened before the portal listens, so that a bundle or a
		// passphrase that is wrong stops it before it says it is up. The seal generated on embedded
		// defaults opens on first use, or once the first requests have been answered (it is the
		// costliest part of a start, and can hardly be wrong).
		const sealTimer = ctx.config.SEAL_P12_FILE ? undefined : setTimeout(openSeal, 1000).unref();
		if (ctx.config.SEAL_P12_FILE) await openSeal();
		const stopWorker = startWorker(ctx);
		// adapter-node stops on these by itself, after the requests under way: say so at once, or a
		// supervisor's log shows nothing until the process has gone.
		const wait = Number(env.SHUTDOWN_TIMEOUT) || 30;
		let signalledAt = 0;
		if (!dev) {
			for (const signal of ['SIGTERM', 'SIGINT'] as const) {
				process.once(signal, () => {
					signalledAt ||= Date.now();
					console.info(
						`[stop] ${signal}: no new connections; the requests under way are answered (for at most ${wait} s, SHUTDOWN_TIMEOUT), then the portal stops.`
					);
				});
			}
		}
		// adapter-node emits this once the HTTP server has closed (SIGTERM, SIGINT): let go of the
		// database so the process can end, and end it if something else still holds it open.
		process.once('sveltekit:shutdown', () => {
			stopWorker();
			// A seal not yet opened is not opened now; one opening records its certificate first,
			// or its write would meet a closed database and end the stop with an error.
			clearTimeout(sealTimer);
			void Promise.resolve(sealing)
				.then(() => ctx.database.close())
				.then(
					() => {
						// adapter-node closes what is still open once SHUTDOWN_TIMEOUT has passed.
						const cut = signalledAt && Date.now() - signalledAt >= wait * 1000;
						console.info(
							cut
								? `[stop] stopped: connections still open after ${wait} s were closed; the database closed.`
								: '[stop] stopped: every request answered, the database closed.'
						);
					},
					() => console.error('[stop] stopped; the database did not close cleanly.')
				)
				.finally(() => setTimeout(() => process.exit(0), 1000).unref());
		});
	} catch (err) {
		// A ConfigError's, DataDirBusyError's or MigrationsMissingError's message is ours (one line
		// per bad setting, the data folder in use, the migrations not found); anything else, e.g.
		// the database refusing to open, is named by its class and code only.
		if (
			err instanceof ConfigError ||
			err instanceof DataDirBusyError ||
			err instanceof MigrationsMissingError
		)
			console.error(err.message);
		else {
			const words = databaseProblem(err, env.DATABASE_URL);
			if (words) console.error(`[start] the portal could not open its database: ${words}`);
			else logError('start', 'the portal could not start', err);
		}
		process.exit(1);
	}
	// Node would print these with their message and stack: name them, then end as Node would.
	process.on('uncaughtException', (err) => {
		// adapter-node's listen fails this way: its server has no error listener.
		const listen = listenProblem((err as NodeJS.ErrnoException).code);
		if (listen) console.error(`[start] ${listen}`);
		else logError('fatal', 'uncaught exception', err);
		process.exit(1);
	});
	process.on('unhandledRejection', (err) => {
		logError('fatal', 'unhandled promise rejection', err);
		process.exit(1);
	});
};

const csrf: Handle = async ({ event, resolve }) => {
	if (isForeignFormPost(event.request, event.url)) {
		const message = foreignFormMessage(event.request, event.url);
		logOtherOwnOrigin(event.request, event.url);
		// A form sent by `use:enhance` reads the answer as an action result: give it one, so the
		// page shows our words instead of failing to parse plain text.
		if (event.request.headers.get('x-sveltekit-action') === 'true') {
			return new Response(JSON.stringify({ type: 'error', status: 403, error: { message } }), {
				status: 403,
				headers: { 'content-type': 'application/json' }
			});
		}
		// A browser's plain form post gets a page; any other client the words alone.
		if (!(event.request.headers.get('accept') ?? '').includes('text/html')) {
			return new Response(message, { status: 403 });
		}
		return refusalPage({
			status: 403,
			title: 'This form was refused',
			message,
			next: 'If you were signing, or working in the rep console, open the signing link or the console again and send the form from there.',
			again: event.url.pathname,
			contact: await signingContact(event)
		});
	}
	return resolve(event);
};

/** Malformed requests end here with a 4xx and reasons, whatever route they are for. */
const inputs: Handle = async ({ event, resolve }) => {
	const problem = await checkRequest(event.request, event.url);
	if (!problem) return resolve(event);
	// The operator API says nothing of what was sent to a caller without its key: the key's 401
	// (or 429) comes first, as it does in the endpoint for a request that is well formed.
	if (isOperatorApiPath(event.url.pathname)) {
		const refused = await authorizeOperator(app(), event);
		if (refused) {
			await drainBody(event.request);
			return refused;
		}
	}
	return refuseInput(event.request, event.url, problem, await signingContact(event));
};

/**
 * Whom a form refused on a signing link or step names, as that page does (see the link page's
 * load and routes/sign/+layout.server.ts): a merchant without script reads the refusal as a page
 * of its own, and the way forward it names includes their rep. Only a refusal shown as a page
 * looks for it; never fails (the page then says what to do without it).
 */
async function signingContact(event: RequestEvent): Promise<SigningContact | undefined> {
	const path = event.url.pathname;
	const token = /^\/s\/([^/]+)$/.exec(path)?.[1];
	if ((!token && !path.startsWith('/sign/')) || wantsActionResult(event.request)) return;
	const ctx = app();
	try {
		if (token) {
			const rep = await refusedPostRep(ctx, event, token);
			return rep === undefined ? undefined : { rep, inPerson: false };
		}
		const found = await findSession(
			ctx.db,
			event.cookies.get(SESSION_COOKIE),
			ctx.config.SESSION_IDLE_MINUTES
		);
		if (!found) return;
		if ('open' in found) {
			const { open } = found;
			return { rep: await sessionRep(ctx, open), inPerson: open.channel === 'in_person' };
		}
		return { rep: await endedSessionRep(ctx, found.ended), inPerson: false };
	} catch {
		return;
	}
}

/**
 * Reads what is left of a refused request's body (adapter-node bounds it), so that the connection
 * stays usable for the client's next request instead of being reset.
 */
async function drainBody(request: Request): Promise<void> {
	if (!request.bodyUsed) await request.arrayBuffer().catch(() => undefined);
}

/** A refusal of what was sent, once the rest of its body is read (see problemResponse). */
async function refuseInput(
	request: Request,
	url: URL,
	problem: InputProblem,
	contact?: SigningContact
): Promise<Response> {
	await drainBody(request);
	return problemResponse(request, url, problem, contact);
}

/**
 * An address that spells a letter, digit or -._~ as %XX goes to its plain form (a GET or HEAD)
 * or is refused, before any check reads the path (see plainPath).
 */
const plain: Handle = async ({ event, resolve }) => {
	const path = plainPath(event.url.pathname);
	if (path === null) return resolve(event);
	const method = event.request.method;
	if (method === 'GET' || method === 'HEAD') redirect(308, `${path}${event.url.search}`);
	const url = new URL(event.url);
	url.pathname = path;
	return refuseInput(event.request, url, {
		status: 400,
		message: `This address spells some of its letters as codes (%XX). Send the request to ${path} instead.`,
		errors: {}
	});
};

/** The embedded Onboarding Service: only when no real one is configured, else not there at all. */
const sandbox: Handle = async ({ event, resolve }) => {
	const path = event.url.pathname;
	if (path !== '/sandbox' && !path.startsWith('/sandbox/')) return resolve(event);
	const ctx = app();
	if (!ctx.sandbox) return new Response('Not found', { status: 404 });
	// A tablet handed to a merchant opens nothing of the sandbox: its control API's answer key
	// would answer the identity questions on the screen, and its service API lists the office's
	// merchants and serves their applications (the real service is not reachable through the
	// portal at all). By its cookie: a browser with every cookie cleared is anyone's, and the
	// portal's own calls to the sandbox carry none.
	const tabletSecret = event.cookies.get(TABLET_COOKIE);
	if (tabletSecret) {
		const rules = { idleSeconds: ctx.config.IN_PERSON_IDLE_SECONDS, touch: false };
		if (await findHandover(ctx.db, { tabletSecret }, rules)) {
			// A person typed it on the tablet: back to where the tablet is (the tablet handle sends
			// the home page on to the signing step or the lock screen), as every other address does.
			const method = event.request.method;
			if (method === 'GET' || method === 'HEAD') return sendTo(event, '/', undefined);
			await drainBody(event.request);
			return refusalPage({
				status: 403,
				title: 'Not on this device',
				message: 'A device handed to a merchant opens only the signing step.',
				next: 'Hand this device back to your sales representative.'
			});
		}
	}
	return ctx.sandbox.handle(event.request);
};

/** The open hand-over read with a rep's session (see resumeRepSession), for the tablet handle. */
const repHandovers = new WeakMap<App.Locals, Handover | undefined>();

/**
 * The done step's two PDFs, kept under the application's audit-chain head (evidence/documents.ts):
 * the session's statement reads the head too, so that a download is one statement where it was two.
 */
const DONE_PDFS = new Set(['/sign/done/certificate.pdf', '/sign/done/signed-copy.pdf']);

const session: Handle = async ({ event, resolve }) => {
	const ctx = app();
	const path = event.url.pathname;
	const found = path.startsWith('/sign')
		? await findSession(
				ctx.db,
				event.cookies.get(SESSION_COOKIE),
				ctx.config.SESSION_IDLE_MINUTES,
				new Date(),
				{ withChainHead: DONE_PDFS.has(path) }
			)
		: undefined;
	event.locals.signing = found && 'open' in found ? found.open : undefined;
	event.locals.signingEnded = found && 'ended' in found ? found.ended : undefined;
	if (found && 'open' in found && found.chainHead !== undefined) {
		event.locals.signingChainHead = { sessionId: found.open.id, head: found.chainHead };
	}
	const repSecret = event.cookies.get(REP_COOKIE);
	const rules = {
		idleMinutes: ctx.config.REP_SESSION_IDLE_MINUTES,
		maxHours: ctx.config.REP_SESSION_MAX_HOURS,
		unattended: event.cookies.get(UNATTENDED_COOKIE) !== undefined
	};
	const resumed = isRepPath(event.url.pathname)
		? await resumeRepSession(ctx.db, repSecret, rules)
		: undefined;
	event.locals.rep = resumed?.rep;
	// A cookie whose session is over: the sign-in page says why (requireRep).
	if (repSecret && !resumed && isRepPath(event.url.pathname)) {
		event.locals.repEnded = await whyRepSessionEnded(ctx.db, repSecret, rules);
	}
	repHandovers.set(event.locals, resumed?.handover ?? undefined);
	return resolve(event);
};

/**
 * A tablet handed to a merchant: every address a person opens leads to the signing step while
 * the merchant has it, and to the lock screen once it is locked (finished, taken back, idle).
 * The hand-over is found by any of three cookies, and each is only a key to server state.
 * Outside /rep and /sign (the home page, a signing link, /verify, the dev mailbox) only the
 * tablet's own cookie leads to it, so no other visitor pays for a look-up.
 */
const tablet: Handle = async ({ event, resolve }) => {
	const path = event.url.pathname;
	const onSign = path === '/sign' || path.startsWith('/sign/');
	event.locals.handover = undefined;
	const tabletSecret = event.cookies.get(TABLET_COOKIE);
	if (!onSign && !isRepPath(path) && !(tabletSecret && isTabletPage(path))) {
		return resolve(event);
	}
	const { locals } = event;
	// A hand-over is only ever made with an in-person signing session and a rep's session: a
	// merchant on their own device (an emailed link, neither cookie) costs no look-up.
	if (!tabletSecret && !locals.rep && locals.signing?.channel !== 'in_person') {
		return resolve(event);
	}
	const ctx = app();
	const rules = { idleSeconds: ctx.config.IN_PERSON_IDLE_SECONDS, touch: onSign };
	// A rep page without the tablet's cookie: the rep session's hand-over came with the session.
	let h =
		!tabletSecret && !locals.signing && locals.rep
			? await keepHandover(ctx.db, repHandovers.get(locals), rules)
			: await findHandover(
					ctx.db,
					{
						tabletSecret,
						repSessionId: locals.rep?.sessionId,
						signingSessionId: locals.signing?.id
					},
					rules
				);
	if (!h) return resolve(event);
	let signing: typeof locals.signing;
	let reissued: string | undefined;
	if (
		locals.rep?.sessionId === h.repSessionId &&
		!holdsTabletKey(h, tabletSecret) &&
		// A link from another site is sent the rep's cookie (lax) but not the tablet's (strict):
		// held back, not lost.
		event.request.headers.get('sec-fetch-site') !== 'cross-site'
	) {
		// Found by the rep's session, in the browser that handed over: it has lost the tablet's
		// cookie (cleared by hand). The signing steps are not sent the rep's cookie, and without
		// the tablet's (or the signing's, which may be gone too) they would turn this browser away
		// as a stranger's, with no way back to the lock screen: it gets a new key.
		reissued = await reissueTabletKey(ctx.db, h);
		setTabletCookie(event.cookies, event.url, reissued);
	}
	if (!h.lockedAt) {
		signing =
			locals.signing?.id === h.signingSessionId
				? locals.signing
				: await openSessionById(ctx.db, h.signingSessionId, ctx.config.SESSION_IDLE_MINUTES);
		if (!signing) {
			// The signing session itself ended (idle past SESSION_IDLE_MINUTES, or closed).
			h = await lockHandover(ctx.db, h, 'idle');
		} else if (currentStep(signing) === 'done') {
			// Finished (a decision, or a decline before identity): the done page shows once, and
			// locks the tablet behind it.
			h = await lockHandover(ctx.db, h, 'finished');
			if (path === STEP_PATHS.done && event.request.method === 'GET') {
				locals.handover = h;
				locals.signing = signing;
				return resolve(event);
			}
		}
	}
	locals.handover = h;
	if (h.lockedAt) {
		locals.signing = undefined;
		if (path === LOCK_PATH) return resolve(event);
		return sendTo(event, LOCK_PATH, reissued);
	}
	if (path === LOCK_PATH) return resolve(event);
	if (!onSign) return sendTo(event, STEP_PATHS[currentStep(signing!)], reissued);
	locals.signing = signing;
	return resolve(event);
};

/**
 * Where a hand-over sends a request, as a response of ours rather than a thrown redirect: kit
 * answers a hook's thrown one past every hook, so without `headers`' no-store. A browser keeps
 * such a 303 and replays it on Back once the hand-over it followed has changed: after an Unlock,
 * /rep went on to the lock screen from the browser's cache and the lock screen back to /rep, until
 * the browser gave up. In kit's three forms: a page's 303, a data request's JSON, a form posted by
 * script answered as kit answers an action's redirect. A tablet key given again on the way goes
 * with it (kit adds the cookies only to the responses it makes).
 */
function sendTo(event: RequestEvent, location: string, reissued: string | undefined): Response {
	const headers = { 'cache-control': 'private, no-store' };
	const response = event.isDataRequest
		? json({ type: 'redirect', location }, { headers })
		: event.request.method === 'POST' && event.request.headers.get('x-sveltekit-action') === 'true'
			? json({ type: 'redirect', status: 303, location }, { headers })
			: new Response(null, { status: 303, headers: { location } });
	if (reissued) {
		response.headers.append('set-cookie', tabletCookieHeader(event.cookies, event.url, reissued));
	}
	return response;
}

/**
 * What a handed-over tablet must not open beside its signing step: every address but the
 * machines' own (the operator API, the health check, the sandbox's control API, the reminder
 * clock), which a browser is never sent to and which carry their own keys.
 */
const MACHINE_PATHS = ['/api', '/healthz', '/sandbox', '/dev/reminders'];
const isTabletPage = (path: string) =>
	!MACHINE_PATHS.some((p) => path === p || path.startsWith(`${p}/`));

const headers: Handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	const set = (name: string, value: string) => {
		// Responses built by `fetch` or `Response.redirect` can carry immutable headers.
		try {
			response.headers.set(name, value);
		} catch {
			/* immutable: leave as is */
		}
	};
	set('Referrer-Policy', 'no-referrer');
	set('X-Content-Type-Options', 'nosniff');
	set('X-Frame-Options', 'DENY');
	set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
	// Signing pages and PDFs carry personal data: no cache may keep them.
	if (
		!response.headers.has('cache-control') ||
		event.url.pathname.startsWith('/sign') ||
		event.url.pathname.startsWith('/s/') ||
		isRepPath(event.url.pathname)
	) {
		set('Cache-Control', 'no-store');
	}
	return response;
};

// compress after sandbox: the embedded service's answers are the upstream's, not the portal's.
/** An address under /api/ that is no endpoint: the operator's client reads JSON, not a page. */
const apiNotFound: Handle = ({ event, resolve }) => {
	if (event.route.id !== null || !isApiPath(event.url.pathname)) return resolve(event);
	return Response.json(
		{
			message:
				'There is no operator API endpoint at this address. The one there is: POST /api/v1/offices/{officeId}/applications/{applicationId}/signing-links.'
		},
		{ status: 404 }
	);
};

/**
 * SvelteKit's own 405 (a PUT or DELETE on a page, a POST to an endpoint that only answers GET:
 * only tools send them) says "PUT method not allowed". Said in our words, with kit's `Allow`.
 * The operator API and the sandbox answer their own 405s.
 */
const methods: Handle = async ({ event, resolve }) => {
	const { method } = event.request;
	// An address that answers GET alone answers anything else 405 at once: a form's checks (its
	// origin, its type) would answer a question the address never asks.
	if (method !== 'GET' && method !== 'HEAD' && GET_ONLY_ROUTES.has(event.route.id ?? '')) {
		await drainBody(event.request);
		return notAcceptedResponse(method, GET_ONLY_ALLOW);
	}
	const response = await resolve(event);
	const path = event.url.pathname;
	// A page's own 405 (a form posted to a page without one) is its error page, in our words
	// already (handleError); an endpoint's (a POST to /healthz or a PDF, a GET to a POST-only
	// address) is kit's "POST method not allowed", said again here.
	if (
		response.status !== 405 ||
		(response.headers.get('content-type') ?? '').includes('text/html') ||
		event.request.headers.get('x-sveltekit-action') === 'true' ||
		isApiPath(path) ||
		path === '/sandbox' ||
		path.startsWith('/sandbox/')
	) {
		return response;
	}
	const allow = response.headers.get('allow') ?? 'GET, HEAD';
	return notAcceptedResponse(method, allow);
};

/** What Retry-After asks of a client while the database is away: health checks poll as often. */
const AWAY_RETRY_SECONDS = 30;

const API_AWAY =
	'The portal’s database is not answering just now, so nothing was done. Try again shortly (see Retry-After); the portal’s /healthz says when it answers again.';

/**
 * The database away answers 503 with Retry-After, not 500: a load balancer and the operator API's
 * clients read it as "try again shortly". handleError marks a request whose route failed so
 * (locals.databaseAway). One that failed in a hook before its route (the operator key's count) is
 * caught here, for the API, in JSON; a page's stays kit's plain error page, whose words say it.
 */
const databaseAway: Handle = async ({ event, resolve }) => {
	let response: Response;
	try {
		response = await resolve(event);
	} catch (err) {
		if (!isApiPath(event.url.pathname) || !databaseUnavailable(err)) throw err;
		const errorId = randomUUID();
		logFailure(errorId, event, err);
		return Response.json(
			{ message: API_AWAY, errorId },
			{ status: 503, headers: { 'retry-after': String(AWAY_RETRY_SECONDS) } }
		);
	}
	if (response.status !== 500 || !event.locals.databaseAway) return response;
	const headers = new Headers(response.headers);
	headers.set('retry-after', String(AWAY_RETRY_SECONDS));
	return new Response(response.body, { status: 503, headers });
};

export const handle = sequence(
	headers,
	databaseAway,
	plain,
	pageStatus,
	apiNotFound,
	methods,
	csrf,
	inputs,
	sandbox,
	compress,
	session,
	tablet
);

/** An address whose %-escapes don't decode (a link cut or mangled on its way): kit answers 400. */
function damaged(pathname: string): boolean {
	try {
		// Compared, not called alone: the bundler drops a bare decodeURI() as free of effects.
		return decodeURI(pathname) === '';
	} catch {
		return true;
	}
}

/**
 * A failure of ours in the log: the route and the error's class and code only, never its message,
 * a body or form data. inWords: the database's trouble as the start names it (nothing answers at
 * host:port…).
 */
function logFailure(errorId: string, event: RequestEvent, error: unknown) {
	console.error(
		`[error ${errorId}] ${event.request.method} ${event.route.id ?? 'unknown route'} failed: ${inWords(error)}`
	);
}

export const handleError: HandleServerError = ({ error, event, status }) => {
	const errorId = randomUUID();
	// 4xx are the client's (bad input, unknown paths): only our own failures are logged.
	if (status >= 500) logFailure(errorId, event, error);
	// A form posted to a page that has none (an old page's form, a tool): kit's 405; or to a page
	// whose forms all have names, without one (kit's 404 for a missing default action: the page is
	// there, route and all).
	if (
		event.request.method === 'POST' &&
		(status === 405 || (status === 404 && event.route.id !== null))
	) {
		return {
			title: 'Nothing was done',
			// Without `?/name` to a page whose forms all have names: said so. A name it doesn't have
			// (an old page's form), or a page with no form at all: that it has none such.
			message:
				status === 404 && actionName(event.url) === undefined
					? 'What was sent did not say which of this page’s forms it came from, so it was not used. Open the page again and use the buttons on it.'
					: 'This page has no such form to send, so what was sent was not used. Open the page again and use the buttons on it.'
		};
	}
	// The database away (a restart, a failover, the server down): a reader can do nothing but
	// come back, and should know that much (health checks take the instance out meanwhile).
	if (status >= 500 && databaseUnavailable(error)) {
		// Answered 503 (databaseAway).
		event.locals.databaseAway = true;
		if (isApiPath(event.url.pathname)) return { message: API_AWAY, errorId };
		// The message alone is the heading of the plain error page (src/error.html), for a failure
		// before any page (the session's lookup): it says it all.
		const message = isRepPath(event.url.pathname)
			? 'The portal can’t reach its records just now, so nothing can be looked up or recorded. Try again in a few minutes; if it goes on, tell whoever runs this portal.'
			: 'We can’t reach our records just now. Try again in a few minutes: your link still works, and whatever was already recorded is kept.';
		return { title: 'Not available just now', message, errorId };
	}
	const message =
		status === 404
			? isRepPath(event.url.pathname)
				? 'There is no page at this address in the rep console.'
				: 'There is nothing at this address. Check the link, or ask your sales representative for a new one.'
			: // A form posted as something else (JSON, or with no type): SvelteKit's own refusal.
				status === 415
				? 'Forms are accepted only as application/x-www-form-urlencoded or multipart/form-data.'
				: status === 413
					? 'What was sent is larger than this portal accepts.'
					: status === 400 && damaged(event.url.pathname)
						? `This address is damaged: part of it can’t be read. ${
								isRepPath(event.url.pathname)
									? 'Check the address, or start again from your office’s applications.'
									: 'Check that you opened the whole link from your email, or ask your sales representative for a new one.'
							}`
						: status < 500
							? 'This request could not be handled. Go back and try again.'
							: 'Something went wrong on our side. Please try again in a minute.';
	return { message, errorId: status >= 500 ? errorId : undefined };
};
