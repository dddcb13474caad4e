import type { Db } from '../db';
import { sandboxFaults } from '../db/schema';
import {
	clearOverrides,
	isSection,
	putOverride,
	type SectionOverride
} from './acceptance/acceptance';
import { describeDecision, findDecision } from './decisions';
import { clearFaults, parseFault, putFault } from './faults';
import {
	addError,
	empty,
	invalid,
	json,
	message,
	notFound,
	readJson,
	type ModelState
} from './http';
import { getQuestionSet, latestQuestionSet } from './identity/store';
import { listRequests } from './requestlog';
import { OPERATIONS, parseId, type Operation } from './router';
import { getSettings, putSetting } from './store';

/**
 * The sandbox-only control API under `{base}/_sandbox/` (documented in README.md). It is how
 * tests read right answers, inject faults, override acceptance language and reset state.
 */

export interface ControlContext {
	db: Db;
	request: Request;
	url: URL;
	/** Path segments after `_sandbox`. */
	segments: string[];
	basePath: string;
	reset(): Promise<void>;
}

type Verb = 'GET' | 'PUT' | 'POST' | 'DELETE';
type Action = (ctx: ControlContext) => Promise<Response>;

interface ControlRoute {
	pattern: string[];
	methods: Partial<Record<Verb, Action>>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

const routes: ControlRoute[] = [
	{ pattern: ['reset'], methods: { POST: async (c) => (await c.reset(), empty(204)) } },
	{ pattern: ['answers', ':id'], methods: { GET: answers } },
	{ pattern: ['answers', 'latest', ':application'], methods: { GET: latestAnswers } },
	{
		pattern: ['faults'],
		methods: { GET: listFaults, DELETE: async (c) => (await clearFaults(c.db), empty(204)) }
	},
	{ pattern: ['faults', ':operation'], methods: { PUT: setFault } },
	{ pattern: ['acceptancelanguage', ':office', ':section'], methods: { PUT: setAcceptance } },
	{
		pattern: ['acceptancelanguage', ':office'],
		methods: { DELETE: resetAcceptance }
	},
	{
		pattern: ['settings'],
		methods: { GET: async (c) => json(await getSettings(c.db)), PUT: setSettings }
	},
	{ pattern: ['decisions', ':id'], methods: { GET: decision } },
	{ pattern: ['requests'], methods: { GET: requests } }
];

export async function control(ctx: ControlContext): Promise<Response> {
	const route = routes.find(
		(r) =>
			r.pattern.length === ctx.segments.length &&
			r.pattern.every((p, i) => p.startsWith(':') || p === ctx.segments[i])
	);
	if (!route) return notFound('No such sandbox control resource.');
	const action = route.methods[ctx.request.method as Verb];
	if (!action) {
		return message(405, `The sandbox control resource does not support '${ctx.request.method}'.`, {
			allow: Object.keys(route.methods).join(', ')
		});
	}
	return action(ctx);
}

const param = (c: ControlContext, i: number) => c.segments[i] ?? '';

async function answers(c: ControlContext) {
	const set = await getQuestionSet(c.db, param(c, 1));
	if (!set) return message(404, 'No such question set.');
	return json({ ApplicationID: set.applicationId, QuestionSetID: set.id, Answers: set.answers });
}

/** The page never shows a QuestionSetID; tests and demos ask by application (`?office=`, default 1207). */
async function latestAnswers(c: ControlContext) {
	const applicationId = parseId(param(c, 2));
	const officeId = parseId(c.url.searchParams.get('office') ?? '1207');
	if (applicationId === null || officeId === null) {
		return invalid({ applicationId: ['An integer application id (and office) is expected.'] });
	}
	const set = await latestQuestionSet(c.db, officeId, applicationId);
	if (!set) return message(404, 'No question set has been issued for that application.');
	return json({ ApplicationID: set.applicationId, QuestionSetID: set.id, Answers: set.answers });
}

async function listFaults(c: ControlContext) {
	return json(await c.db.select().from(sandboxFaults));
}

async function setFault(c: ControlContext) {
	const operation = param(c, 1);
	if (!(OPERATIONS as readonly string[]).includes(operation)) {
		return message(404, `Unknown operation '${operation}'. Known: ${OPERATIONS.join(', ')}.`);
	}
	const body = await readJson(c.request, 'fault');
	if (!body.ok) return body.response;
	const parsed = parseFault(body.value);
	if (!parsed.ok) return invalid(parsed.modelState);
	await putFault(c.db, operation as Operation, parsed.fault);
	return json({ operation, ...parsed.fault });
}

async function setAcceptance(c: ControlContext) {
	const office = parseId(param(c, 1));
	const section = param(c, 2);
	const state: ModelState = {};
	if (office === null) addError(state, 'officeId', 'officeId must be an integer.');
	if (!isSection(section)) addError(state, 'section', `Unknown section '${section}'.`);
	const body = await readJson(c.request, 'override');
	if (!body.ok) return body.response;
	const override: SectionOverride = {};
	if (!isObject(body.value)) addError(state, 'body', 'A JSON object is expected.');
	else {
		const { html, presented } = body.value;
		if (html !== undefined) {
			if (html === null || typeof html === 'string') override.html = html;
			else addError(state, 'html', 'html must be a string or null.');
		}
		if (presented !== undefined) {
			if (typeof presented === 'boolean') override.presented = presented;
			else addError(state, 'presented', 'presented must be true or false.');
		}
	}
	if (Object.keys(state).length > 0 || office === null || !isSection(section))
		return invalid(state);
	await putOverride(c.db, office, section, override);
	return empty(204);
}

async function resetAcceptance(c: ControlContext) {
	const office = parseId(param(c, 1));
	if (office === null) return invalid({ officeId: ['officeId must be an integer.'] });
	await clearOverrides(c.db, office);
	return empty(204);
}

async function setSettings(c: ControlContext) {
	const body = await readJson(c.request, 'settings');
	if (!body.ok) return body.response;
	if (!isObject(body.value)) return invalid({ body: ['A JSON object is expected.'] });
	const { timeLimitSeconds } = body.value;
	if (timeLimitSeconds !== undefined) {
		if (
			!Number.isInteger(timeLimitSeconds) ||
			(timeLimitSeconds as number) < 1 ||
			(timeLimitSeconds as number) > 86_400
		) {
			return invalid({
				timeLimitSeconds: ['timeLimitSeconds must be an integer from 1 to 86400.']
			});
		}
		await putSetting(c.db, 'timeLimitSeconds', timeLimitSeconds);
	}
	return json(await getSettings(c.db));
}

async function decision(c: ControlContext) {
	const id = parseId(param(c, 1));
	if (id === null) return invalid({ applicationId: ['applicationId must be an integer.'] });
	const row = await findDecision(c.db, id);
	if (!row) return message(404, `No decision was received for application ${id}.`);
	return json(describeDecision(row));
}

async function requests(c: ControlContext) {
	let path = c.url.searchParams.get('path') ?? undefined;
	// Accept the path with or without the sandbox base in front.
	if (path?.startsWith(c.basePath + '/')) path = path.slice(c.basePath.length);
	return json(
		await listRequests(c.db, {
			path,
			method: c.url.searchParams.get('method') ?? undefined,
			operation: c.url.searchParams.get('operation') ?? undefined
		})
	);
}
