import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db';
import { logError } from '../log/log';
import {
	applicationPdf,
	createApplication,
	listOfficeApplications
} from './application/operations';
import {
	getAcceptanceLanguage,
	getAvailableEquipment,
	getPaymentMethods,
	getSalesTaxRate
} from './catalog';
import { control } from './control';
import { merchantDecision } from './decisions';
import { getFault, playFault } from './faults';
import { invalid, message, notFound, storableText } from './http';
import { answerSet, questionSet } from './identity/operations';
import { logEnd, logStart } from './requestlog';
import { route, type Operation, type Route } from './router';
import { addDemoApplication, seedDemoData } from './seed';
import { wipe } from './store';

export { OPERATIONS, type Operation } from './router';

export interface SandboxOptions {
	db: Db;
	/** Where the sandbox is mounted (default `/sandbox`); every handled URL path starts with it. */
	basePath?: string;
	/** The header that carries the credential (default `Authorization`). */
	authHeader?: string;
	/** When set, a service call without this exact header value is answered 401. */
	authValue?: string;
	/** The clock (tests move it to expire question sets). */
	now?: () => Date;
	/**
	 * The zone whose calendar day the service writes dates in (default America/Chicago). The
	 * interface document names none; a service of a US company keeps its own day, not UTC's, so
	 * an application made at 7 p.m. in Chicago is not dated tomorrow. The portal passes the
	 * office's zone.
	 */
	timeZone?: string;
	/**
	 * The key of the SSN digests it keeps (ssn.ts): the portal derives it from its encryption
	 * key (sandboxSsnKey). A random one when not given, which no digest outlives a restart with.
	 */
	ssnKey?: Buffer;
}

export interface Sandbox {
	/** Answers a request whose URL path starts with the base path. */
	handle(request: Request): Promise<Response>;
	/** Inserts the demo data where missing (idempotent). */
	seed(): Promise<void>;
	/** Adds a fresh demo application of office 1207, ready to sign (addDemoApplication). */
	addDemo(): Promise<{ id: number; business: string }>;
}

/** The ten operations of the Merchant Onboarding Service, after `api/office/{officeid}/`. */
const ROUTES: Route[] = [
	{
		operation: 'acceptancelanguage',
		method: 'GET',
		path: 'acceptancelanguage',
		handler: getAcceptanceLanguage
	},
	{
		operation: 'createapplication',
		method: 'POST',
		path: 'application',
		handler: createApplication
	},
	{
		operation: 'listapplications',
		method: 'GET',
		path: 'application',
		handler: listOfficeApplications
	},
	{
		operation: 'availableequipment',
		method: 'GET',
		path: 'availableequipment',
		handler: getAvailableEquipment
	},
	{
		operation: 'questionset',
		method: 'GET',
		path: 'questionset/:applicationid',
		handler: questionSet
	},
	{ operation: 'answerset', method: 'POST', path: 'answerset/:applicationid', handler: answerSet },
	{
		operation: 'merchantdecision',
		method: 'POST',
		path: 'merchantdecision/:applicationid',
		handler: merchantDecision
	},
	{ operation: 'paymentmethod', method: 'GET', path: 'paymentmethod', handler: getPaymentMethods },
	{ operation: 'pdf', method: 'GET', path: 'pdf/:applicationid', handler: applicationPdf },
	{ operation: 'salestaxrate', method: 'GET', path: 'salestaxrate', handler: getSalesTaxRate }
];

const digest = (s: string) => createHash('sha256').update(s).digest();

export function createSandbox(opts: SandboxOptions): Sandbox {
	const { db } = opts;
	const basePath = (opts.basePath ?? '/sandbox').replace(/\/+$/, '');
	const authHeader = opts.authHeader ?? 'Authorization';
	const expected = opts.authValue ? digest(opts.authValue) : null;
	const clock = opts.now ?? (() => new Date());
	const ssnKey = opts.ssnKey ?? randomBytes(32);

	const seed = () => db.transaction((tx) => seedDemoData(tx, clock(), ssnKey));
	const reset = () =>
		db.transaction(async (tx) => {
			await wipe(tx);
			await seedDemoData(tx, clock(), ssnKey);
		});

	const authorized = (request: Request) => {
		if (!expected) return true;
		const given = request.headers.get(authHeader);
		// Compare digests so the comparison takes the same time whatever the value's length.
		return given !== null && timingSafeEqual(digest(given), expected);
	};

	async function dispatch(
		request: Request,
		url: URL,
		path: string,
		op: { name: Operation | null }
	) {
		if (!authorized(request))
			return message(401, 'Authorization has been denied for this request.');
		const match = route(ROUTES, request.method, path);
		if (!match.ok) {
			op.name = match.operation ?? null;
			return match.response;
		}
		op.name = match.route.operation;
		const fault = await getFault(db, match.route.operation);
		if (fault) {
			const faulted = await playFault(fault, request.signal);
			if (faulted) return faulted;
		}
		return match.route.handler({
			db,
			request,
			url,
			now: clock(),
			timeZone: opts.timeZone ?? 'America/Chicago',
			officeId: match.officeId,
			applicationId: match.applicationId,
			ssnKey
		});
	}

	async function api(request: Request, url: URL, path: string): Promise<Response> {
		const started = Date.now();
		const logId = await logStart(db, request.method, path, clock());
		const op: { name: Operation | null } = { name: null };
		let response: Response;
		try {
			response = await dispatch(request, url, path, op);
		} catch (err) {
			// Never the error itself: a database error can quote the values it was given.
			logError('sandbox', `${op.name ?? 'unrouted request'} failed`, err);
			response = message(500, 'An error has occurred.');
		}
		await logEnd(db, logId, op.name, response.status, Date.now() - started);
		return response;
	}

	async function handle(request: Request): Promise<Response> {
		const url = new URL(request.url);
		const path = url.pathname;
		if (path !== basePath && !path.startsWith(`${basePath}/`)) return notFound();
		const rest = path.slice(basePath.length) || '/';
		const segments = rest.split('/').filter((s) => s !== '');
		// A query's NUL would reach the database's text (the request log, the control's filters).
		for (const [k, v] of url.searchParams) {
			if (!storableText(k) || !storableText(v)) {
				return invalid({ query: ['The query string holds a NUL character (%00).'] });
			}
		}
		if (segments[0] === '_sandbox') {
			try {
				return await control({ db, request, url, segments: segments.slice(1), basePath, reset });
			} catch (err) {
				logError('sandbox', 'control request failed', err);
				return message(500, 'An error has occurred.');
			}
		}
		return api(request, url, rest);
	}

	const addDemo = () => db.transaction((tx) => addDemoApplication(tx, clock()));

	return { handle, seed, addDemo };
}
