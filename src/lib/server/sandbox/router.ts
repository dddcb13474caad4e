import type { Db } from '../db';
import { invalid, message, notFound, type ModelState } from './http';

/** The ten operations, by the names the fault API uses. */
export const OPERATIONS = [
	'acceptancelanguage',
	'createapplication',
	'listapplications',
	'availableequipment',
	'questionset',
	'answerset',
	'merchantdecision',
	'paymentmethod',
	'pdf',
	'salestaxrate'
] as const;

export type Operation = (typeof OPERATIONS)[number];

export interface OpContext {
	db: Db;
	request: Request;
	url: URL;
	now: Date;
	/** The service's own time zone: the calendar day it writes a date in (see SandboxOptions). */
	timeZone: string;
	officeId: number;
	/** Present on the routes with `{applicationid}`. */
	applicationId: number;
	/** The key of the SSN digests kept (see ssn.ts). */
	ssnKey: Buffer;
}

export type Handler = (ctx: OpContext) => Promise<Response>;

export interface Route {
	operation: Operation;
	method: 'GET' | 'POST';
	/** Segments after `api/office/{officeid}/`; `:applicationid` is a path parameter. */
	path: string;
	handler: Handler;
}

export type Match =
	| { ok: true; route: Route; officeId: number; applicationId: number }
	| { ok: false; response: Response; operation?: Operation };

const PREFIX = ['api', 'office', ':officeid'];

function matches(pattern: string[], segments: string[], params: Record<string, string>): boolean {
	if (pattern.length !== segments.length) return false;
	return pattern.every((p, i) => {
		const s = segments[i] ?? '';
		if (p.startsWith(':')) {
			params[p.slice(1)] = s;
			return s !== '';
		}
		return p.toLowerCase() === s.toLowerCase();
	});
}

/** Integers as ASP.NET binds them from a path into an `int`: digits only, at most 2^31 - 1. */
export const parseId = (s: string) =>
	/^\d{1,10}$/.test(s) && Number(s) <= 2_147_483_647 ? Number(s) : null;

/**
 * Finds the route for a path (relative to the sandbox base, e.g. `/api/office/1207/pdf/50001`).
 * Segments match case-insensitively and a trailing slash is insignificant, as in ASP.NET
 * routing. No route → 404; a route with another method → 405 with `Allow`; a path parameter
 * that is not an integer → 400 naming it.
 */
export function route(routes: Route[], method: string, path: string): Match {
	const segments = path
		.split('/')
		.filter((s, i, all) => !(s === '' && (i === 0 || i === all.length - 1)));
	const found = routes
		.map((r) => {
			const params: Record<string, string> = {};
			return matches([...PREFIX, ...r.path.split('/')], segments.map(decodeSegment), params)
				? { route: r, params }
				: null;
		})
		.filter((m) => m !== null);
	if (found.length === 0) return { ok: false, response: notFound() };
	const hit = found.find((m) => m.route.method === method);
	if (!hit) {
		const allow = [...new Set(found.map((m) => m.route.method))].join(', ');
		return {
			ok: false,
			response: message(405, `The requested resource does not support http method '${method}'.`, {
				allow
			})
		};
	}
	const state: ModelState = {};
	const ids: Record<string, number> = {};
	for (const [name, raw] of Object.entries(hit.params)) {
		const id = parseId(raw);
		if (id === null)
			state[name] = [`The value '${raw}' is not valid for ${name}: an integer is expected.`];
		else ids[name] = id;
	}
	if (Object.keys(state).length > 0) {
		return { ok: false, response: invalid(state), operation: hit.route.operation };
	}
	return {
		ok: true,
		route: hit.route,
		officeId: ids.officeid ?? 0,
		applicationId: ids.applicationid ?? 0
	};
}

function decodeSegment(s: string): string {
	try {
		return decodeURIComponent(s);
	} catch {
		return s;
	}
}
