// Property-based tests (fast-check) over every form action and every endpoint of the route tree
// (tests/support/routes.ts reads it, so a route added later is covered the day it lands): random
// and adversarial posts (control characters, huge strings, wrong types, unicode edge cases,
// prototype keys, missing and repeated fields, wrong and broken content types, odd action names)
// never get a 5xx, a refusal always says why, and no request leaves half a record behind.
// Seeded and bounded: PROPERTY_SEED replays a run, PROPERTY_RUNS sets its size.
import { statSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test';
import { E2E } from './support/env';
import {
	createLink,
	digitsOf,
	newApplication,
	receivedDecision,
	rememberSsn,
	rememberTyped,
	resetSandbox,
	type TestApplication
} from './support/flow';
import {
	formsOf,
	newClient,
	reasonOf,
	walkHttp,
	type FormField,
	type HttpStep
} from './support/http';
import { discoverRoutes, pathOf } from './support/routes';

const SEED = Number(process.env.PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.PROPERTY_RUNS ?? 25);
/**
 * One run that takes longer than this fails as a counterexample, with the seed and the path that
 * replay it, where a stall had only hit the test's timeout, which names neither.
 */
const RUN_TIMEOUT_MS = 60_000;
const inventory = discoverRoutes();
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
const STEP_PATHS: Record<string, string> = {
	terms: '/sign/terms',
	identity: '/sign/identity',
	sign: '/sign/sign',
	done: '/sign/done'
};

test.beforeAll(async ({ request }) => {
	await resetSandbox(request);
});

test.beforeEach(() => {
	// A failure is replayed with PROPERTY_SEED=<this> (fast-check also prints the path).
	test.info().annotations.push({ type: 'PROPERTY_SEED', description: String(SEED) });
});

// ---------------------------------------------------------------------------------------------
// What is typed: adversarial values, and personal data with a marker the log search looks for.

/** Personal data typed by this file's runs: none of it may reach the server log. */
const typedHere: string[] = [];
const marker = fc.stringMatching(/^[a-z]{10}$/).map((m) => `zq${m}`);

const adversarial = fc.oneof(
	fc.string({ maxLength: 30 }),
	fc.string({ unit: 'binary', maxLength: 30 }),
	fc.string({ unit: 'grapheme', maxLength: 30 }),
	fc.constantFrom(
		'\u0000',
		'Da\u0000na',
		'\u0007bell',
		'\u001b[31mred',
		'\u0085next line',
		'\u202eevil',
		'\u200b',
		'\ufeffbom',
		'ｆｕｌｌｗｉｄｔｈ',
		'١٢٣-٤٥-٦٧٨٩',
		'🏳️‍🌈👩🏽‍💻',
		"'; drop table decisions; --",
		'<script>alert(1)</script>',
		'${7*7}{{7*7}}',
		'%00%0d%0a',
		'../../etc/passwd',
		'null',
		'undefined',
		'true',
		'[]',
		'{}',
		'-1',
		'0',
		'1e309',
		'NaN',
		' '
	),
	fc.integer({ min: 5_000, max: 120_000 }).map((n) => 'x'.repeat(n))
);

const ssnArb = fc
	.tuple(
		fc.integer({ min: 100, max: 665 }).filter((a) => a !== 666),
		fc.integer({ min: 10, max: 99 }),
		fc.integer({ min: 1000, max: 9999 })
	)
	.map(([a, g, s]) => `${a}-${g}-${s}`);

/** Near-valid values by field name: enough to get past the first checks to the deep ones. */
const validFor = (field: FormField) => {
	const n = field.name;
	if (/^(section-|consent$|confirm$)/.test(n)) return fc.constant('yes');
	if (/name$/i.test(n)) return marker.map((m) => `Dana ${m}`);
	if (/email$/i.test(n)) return marker.map((m) => `${m}@blueheron.example`);
	if (n === 'ssn') return ssnArb;
	if (n === 'reason') return marker.map((m) => `Fees too high, ${m}`);
	return fc.constant(field.value);
};

type Entry = [string, string];

type Mutation =
	| { kind: 'set'; field: number; value: string }
	| { kind: 'drop'; field: number }
	| { kind: 'repeat'; field: number; value: string }
	| { kind: 'add'; name: string; value: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
	fc.record({ kind: fc.constant('set' as const), field: fc.nat(), value: adversarial }),
	fc.record({ kind: fc.constant('drop' as const), field: fc.nat() }),
	fc.record({ kind: fc.constant('repeat' as const), field: fc.nat(), value: adversarial }),
	fc.record({
		kind: fc.constant('add' as const),
		name: fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES, 'prototype'), fc.string({ maxLength: 12 })),
		value: adversarial
	})
);

function mutate(base: Entry[], mutations: Mutation[]): Entry[] {
	const entries = base.map((e) => [...e] as Entry);
	for (const m of mutations) {
		const i = 'field' in m && entries.length > 0 ? m.field % entries.length : -1;
		if (m.kind === 'set' && i >= 0) entries[i]![1] = m.value;
		else if (m.kind === 'drop' && i >= 0) entries.splice(i, 1);
		else if (m.kind === 'repeat' && i >= 0) entries.push([entries[i]![0], m.value]);
		else if (m.kind === 'add') entries.push([m.name, m.value]);
	}
	return entries;
}

// ---------------------------------------------------------------------------------------------
// How it is sent.

const ENCODINGS = [
	'urlencoded',
	'multipart',
	'json',
	'text/plain',
	'sveltekit-formdata',
	'broken-multipart',
	'none'
] as const;
type Encoding = (typeof ENCODINGS)[number];

function encode(entries: Entry[], encoding: Encoding): { type?: string; body: string } {
	const boundary = 'fuzzboundary7MA4YWxk';
	switch (encoding) {
		case 'urlencoded':
			return {
				type: 'application/x-www-form-urlencoded',
				body: new URLSearchParams(entries).toString()
			};
		case 'multipart':
			return {
				type: `multipart/form-data; boundary=${boundary}`,
				body:
					entries
						.map(
							([k, v]) =>
								`--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, '_')}"\r\n\r\n${v}\r\n`
						)
						.join('') + `--${boundary}--\r\n`
			};
		case 'json':
			return { type: 'application/json', body: JSON.stringify(Object.fromEntries(entries)) };
		case 'text/plain':
			return { type: 'text/plain', body: entries.map(([k, v]) => `${k}=${v}`).join('\r\n') };
		case 'sveltekit-formdata':
			return { type: 'application/x-sveltekit-formdata', body: '\u0001\u0000garbage' };
		case 'broken-multipart':
			return {
				type: 'multipart/form-data; boundary=other',
				body: `--${boundary}\r\nContent-Disposition: form-data; name="a"\r\n\r\nb`
			};
		case 'none':
			return { body: new URLSearchParams(entries).toString() };
	}
}

const postArb = fc.record({
	mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }),
	encoding: fc.oneof(
		{ weight: 6, arbitrary: fc.constant('urlencoded' as Encoding) },
		{ weight: 4, arbitrary: fc.constantFrom(...ENCODINGS) }
	),
	enhanced: fc.boolean(),
	action: fc.oneof(
		{ weight: 8, arbitrary: fc.constant(null) },
		{ weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES, 'default', '') },
		{ weight: 1, arbitrary: fc.string({ maxLength: 10 }) }
	)
});

type Post = typeof postArb extends fc.Arbitrary<infer T> ? T : never;

async function send(
	client: APIRequestContext,
	path: string,
	action: string,
	entries: Entry[],
	post: Post
) {
	const name = post.action ?? action;
	const url =
		name === 'default' && post.action === null ? path : `${path}?/${encodeURIComponent(name)}`;
	const { type, body } = encode(entries, post.encoding);
	const headers: Record<string, string> = {
		accept: post.enhanced ? 'application/json' : 'text/html'
	};
	if (post.enhanced) headers['x-sveltekit-action'] = 'true';
	if (type) headers['content-type'] = type;
	const res = await client.post(url, { headers, data: body, maxRedirects: 0 });
	return { res, url, type };
}

/** A 5xx is a failure; a 4xx must say why, in words a person reads. */
async function judge(res: APIResponse, what: string) {
	const { status, reason } = await reasonOf(res);
	expect(status, `${what}: ${status} ${reason}`).toBeLessThan(500);
	if (status >= 400)
		expect(reason.trim().length, `${what}: ${status} without a reason`).toBeGreaterThan(5);
	return status;
}

// ---------------------------------------------------------------------------------------------
// Where a session stands, and sessions to spend.

async function stepOf(client: APIRequestContext): Promise<string> {
	const res = await client.get('/sign/terms', { maxRedirects: 0 });
	if (res.status() === 200) return 'terms';
	if (res.status() === 401) return 'none';
	const to = res.headers().location ?? '';
	const step = Object.entries(STEP_PATHS).find(([, p]) => p === to)?.[0];
	if (!step) throw new Error(`unexpected answer from /sign/terms: ${res.status()} ${to}`);
	return step;
}

/** The step a route serves: a signing step, the link page, or none (anything else). */
function stepFor(routeId: string): HttpStep | 'none' {
	if (routeId === '/s/[token]') return 'link';
	const step = /^\/sign\/(terms|identity|sign)$/.exec(routeId)?.[1];
	return (step as HttpStep | undefined) ?? 'none';
}

interface Session {
	client: APIRequestContext;
	app: TestApplication | null;
	link: string | null;
	step: string;
}

class Sessions {
	private current: Session | null = null;
	constructor(
		private playwright: Parameters<typeof newClient>[0],
		private request: APIRequestContext,
		private step: HttpStep | 'none'
	) {}

	async get(): Promise<Session> {
		if (this.current) return this.current;
		const client = await newClient(this.playwright);
		if (this.step === 'none') {
			this.current = { client, app: null, link: null, step: 'none' };
		} else {
			const { app, link } = await walkHttp(client, this.request, this.step, 'Prop');
			this.current = { client, app, link, step: this.step === 'link' ? 'none' : this.step };
		}
		return this.current;
	}

	async spend() {
		await this.current?.client.dispose();
		this.current = null;
	}

	async close() {
		await this.spend();
	}
}

/** Fills a route's parameters: the session's own link for a token, else something random. */
const paramsArb = fc.record({
	useOwn: fc.boolean(),
	random: fc.oneof(fc.string({ maxLength: 50 }), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/))
});

type Params = typeof paramsArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * What a run found, tried first by every action (then the random ones): a field called
 * `__proto__` refused in a JSON body, or for a control character in a form, once broke the
 * answer to use:enhance (devalue refuses that key) and gave a 500.
 */
const ACTION_REGRESSIONS: [Post, Params][] = (['json', 'urlencoded'] as const).flatMap((encoding) =>
	[true, false].map((enhanced): [Post, Params] => [
		{
			mutations: [{ kind: 'add', name: '__proto__', value: encoding === 'json' ? '' : 'a\u0000b' }],
			encoding,
			enhanced,
			action: null
		},
		{ useOwn: true, random: '' }
	])
);

// ---------------------------------------------------------------------------------------------

test('the route tree is read: the known actions and endpoints are found', () => {
	const pages = Object.fromEntries(inventory.pages.map((p) => [p.id, p.actions]));
	expect(pages['/s/[token]']).toEqual(['start', 'decline']);
	expect(pages['/sign/terms']).toEqual(['consent', 'decline']);
	expect(pages['/sign/identity']).toEqual(['start', 'answer', 'decline']);
	expect(pages['/sign/sign']).toEqual(['review', 'accept', 'decline']);
	const endpoints = Object.fromEntries(inventory.endpoints.map((e) => [e.id, e.methods]));
	expect(
		endpoints['/api/v1/offices/[officeId]/applications/[applicationId]/signing-links']
	).toEqual(['POST', 'fallback']);
	expect(pathOf('/api/v1/offices/[officeId]/x/[[opt]]/(group)/[...rest]', (n) => `<${n}>`)).toBe(
		'/api/v1/offices/%3CofficeId%3E/x/%3Copt%3E/%3Crest%3E'
	);
});

for (const page of inventory.pages) {
	for (const action of page.actions) {
		test(`form action ${page.id} ?/${action}: malformed posts get a 4xx with reasons and change nothing`, async ({
			playwright,
			request
		}) => {
			test.setTimeout(240_000);
			const step = stepFor(page.id);
			const sessions = new Sessions(playwright, request, step);
			const logFrom = statSync(E2E.log).size;
			let posts = 0;
			try {
				await fc.assert(
					fc.asyncProperty(postArb, paramsArb, async (post, params) => {
						const s = await sessions.get();
						const token = params.useOwn && s.link ? s.link.split('/').pop()! : params.random;
						const path = pathOf(page.id, () => token);
						// The page's own forms give the fields, and the values a browser would send.
						if (step === 'identity' && action === 'answer') await openQuestions(s);
						const fields = s.step === 'none' ? [] : await fieldsOf(s, path, action);
						const base = await baseEntries(fields ?? []);
						const entries = mutate(base, post.mutations);
						remember(entries);
						const { res, url, type } = await send(s.client, path, action, entries, post);
						posts++;
						const what = `POST ${url} (${type ?? 'no type'}${post.enhanced ? ', enhanced' : ''}) ${JSON.stringify(entries).slice(0, 300)}`;
						const status = await judge(res, what);
						await noPartialRecord(s, res, status, what, request);
						// A session that moved on, or whose page no longer offers this form (questions
						// locked, say), has served: the next run gets a fresh one.
						if ((await stepOf(s.client)) !== s.step || s.step === 'none' || fields === null) {
							await sessions.spend();
						}
					}),
					{
						seed: SEED,
						numRuns: RUNS,
						endOnFailure: true,
						examples: ACTION_REGRESSIONS,
						plugins: [fc.timeout(RUN_TIMEOUT_MS)]
					}
				);
			} finally {
				await sessions.close();
			}
			expect(posts).toBeGreaterThanOrEqual(RUNS);
			expectNoneLogged(logFrom);
		});
	}
}

/**
 * The fields of the action's form as the page offers it; null when the page has no such form.
 * A form of buttons only beside a form with fields (Decline beside Accept) leads to a second form
 * for the same action (its confirmation): its fields are the ones to send.
 */
async function fieldsOf(s: Session, path: string, action: string): Promise<FormField[] | null> {
	const forms = formsOf(await (await s.client.get(path)).text());
	const form = forms.find((f) => f.action === action);
	if (!form) return null;
	if (form.fields.length > 0 || !forms.some((f) => f.fields.length > 0)) return form.fields;
	const url = action === 'default' ? path : `${path}?/${action}`;
	const next = await s.client.post(url, {
		headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
		data: '',
		maxRedirects: 0
	});
	if (next.status() !== 200) return [];
	return formsOf(await next.text()).find((f) => f.action === action)?.fields ?? [];
}

/** The identity step's answer form exists only while questions are open: open them first. */
async function openQuestions(s: Session) {
	const html = await (await s.client.get('/sign/identity')).text();
	if (formsOf(html).some((f) => f.action === 'answer')) return;
	await s.client.post('/sign/identity?/start', {
		headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
		data: '',
		maxRedirects: 0
	});
}

async function baseEntries(fields: FormField[]): Promise<Entry[]> {
	const seen = new Set<string>();
	const out: Entry[] = [];
	for (const f of fields) {
		// One choice per radio group: the first one offered.
		if (f.type === 'radio' && seen.has(f.name)) continue;
		seen.add(f.name);
		out.push([f.name, fc.sample(validFor(f), { numRuns: 1, seed: SEED + out.length })[0]!]);
	}
	return out;
}

function remember(entries: Entry[]) {
	for (const [name, value] of entries) {
		if (name === 'ssn' && digitsOf(value).length === 9) {
			rememberSsn(value);
			typedHere.push(digitsOf(value));
		} else if (/zq[a-z]{10}/.test(value)) {
			const m = /zq[a-z]{10}/.exec(value)![0];
			rememberTyped(m);
			typedHere.push(m);
		}
	}
}

/**
 * Either the post moved the session on, completely (the next step is where it says, a decision
 * is with the service), or it changed nothing: same step, no decision.
 */
async function noPartialRecord(
	s: Session,
	res: APIResponse,
	status: number,
	what: string,
	request: APIRequestContext
) {
	const now = await stepOf(s.client);
	const location =
		status === 303 || status === 302
			? (res.headers().location ??
				((await res.json().catch(() => ({}))) as { location?: string }).location)
			: undefined;
	// Its path: Start marks the first step's address (`?started`).
	const to = location === undefined ? undefined : new URL(location, 'http://portal').pathname;
	const movedTo = Object.entries(STEP_PATHS).find(([, p]) => p === to)?.[0];
	if (movedTo && movedTo !== s.step) expect(now, what).toBe(movedTo);
	else expect(now, `${what}: the session moved from ${s.step} to ${now}`).toBe(s.step);
	if (s.app && s.step === 'sign') {
		const decided = (await receivedDecision(request, s.app.id)) !== null;
		if (now === 'done') {
			await expect
				.poll(() => receivedDecision(request, s.app!.id), { timeout: 10_000 })
				.not.toBeNull();
		} else {
			expect(decided, `${what}: a decision reached the service, the session is still at sign`).toBe(
				false
			);
		}
	}
}

function expectNoneLogged(from: number) {
	const log = readFileSync(E2E.log).subarray(from).toString('utf8');
	const found = typedHere.filter((v) => log.includes(v));
	expect(found, 'typed values found in the server log').toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// Endpoints

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const idArb = fc.oneof(
	{ weight: 8, arbitrary: fc.constant(null) },
	{
		weight: 3,
		arbitrary: fc.constantFrom(
			'0',
			'000',
			'-1',
			'1e3',
			'01207',
			'9999999999',
			' 1207',
			'1207.0',
			'٣'
		)
	},
	{ weight: 2, arbitrary: fc.string({ maxLength: 12 }) }
);

const jsonKey = fc.oneof(
	fc.constantFrom('email', 'expiresAt', '__proto__', 'constructor', 'prototype', 'toString'),
	fc.string({ maxLength: 10 })
);
const jsonValue = fc.letrec((tie) => ({
	value: fc.oneof(
		{ depthSize: 'small' },
		adversarial,
		marker.map((m) => `${m}@blueheron.example`),
		fc.constantFrom('2030-01-01T00:00:00Z', new Date(Date.now() + 3_600_000).toISOString()),
		fc.integer(),
		fc.double(),
		fc.boolean(),
		fc.constant(null),
		fc.array(tie('value'), { maxLength: 3 }),
		fc.dictionary(jsonKey, tie('value'), { maxKeys: 3 })
	)
})).value;
const bodyArb = fc.oneof(
	fc.dictionary(jsonKey, jsonValue, { maxKeys: 4 }).map((o) => JSON.stringify(o)),
	jsonValue.map((v) => JSON.stringify(v) ?? ''),
	fc.constantFrom('', '{', '{"email":', 'null', '[]', '{"__proto__":{"isAdmin":true}}'),
	fc.string({ maxLength: 40 })
);

/** Mostly the methods the endpoint has (to get past the 405), sometimes any. */
const requestArb = (methods: string[]) =>
	fc.record({
		method: fc.oneof(
			{ weight: 4, arbitrary: fc.constantFrom(...(methods.length > 0 ? methods : METHODS)) },
			{ weight: 1, arbitrary: fc.constantFrom(...METHODS) }
		),
		officeId: idArb,
		applicationId: idArb,
		key: fc.oneof(
			{ weight: 5, arbitrary: fc.constant('right' as const) },
			{ weight: 1, arbitrary: fc.constantFrom('none' as const, 'wrong' as const) }
		),
		type: fc.constantFrom(
			'application/json',
			'text/plain',
			'application/x-www-form-urlencoded',
			'multipart/form-data; boundary=x',
			'application/x-sveltekit-formdata',
			''
		),
		body: bodyArb
	});

type ApiRequest = typeof requestArb extends (m: string[]) => fc.Arbitrary<infer T> ? T : never;

/** What the adversarial probe found, always tried first (then the random ones). */
const API_REGRESSIONS: ApiRequest[] = [
	...[
		'{"__proto__":{"x":1}}',
		'{"constructor":1}',
		'{"toString":1}',
		'{"email":"a\\u0000@b.example"}'
	].map((body) => ({
		method: 'POST',
		officeId: null,
		applicationId: null,
		key: 'right' as const,
		type: 'application/json' as const,
		body
	})),
	...['0', '000'].map((officeId) => ({
		method: 'POST',
		officeId,
		applicationId: null,
		key: 'right' as const,
		type: 'application/json' as const,
		body: ''
	}))
];

for (const endpoint of inventory.endpoints) {
	test(`endpoint ${endpoint.id}: any method, path and body gets an answer below 500, with reasons`, async ({
		request
	}) => {
		test.setTimeout(240_000);
		const logFrom = statSync(E2E.log).size;
		// An application whose current link must survive every refused request.
		const app = await newApplication(request, 'Api');
		let link = (await createLink(request, app.id)).path;
		let calls = 0;
		await fc.assert(
			fc.asyncProperty(requestArb(endpoint.methods.filter((m) => m !== 'fallback')), async (r) => {
				const path = pathOf(endpoint.id, (name) => {
					const given =
						name === 'officeId' ? r.officeId : name === 'applicationId' ? r.applicationId : null;
					if (given !== null) return given;
					return name === 'officeId' ? '1207' : String(app.id);
				});
				const headers: Record<string, string> = {};
				if (r.type) headers['content-type'] = r.type;
				if (r.key === 'right') headers.authorization = `Bearer ${E2E.operatorKey}`;
				if (r.key === 'wrong') headers.authorization = 'Bearer wrong-key-0123456789abcdefgh';
				const marked = /zq[a-z]{10}/.exec(r.body)?.[0];
				if (marked) {
					rememberTyped(marked);
					typedHere.push(marked);
				}
				const res = await request.fetch(path, {
					method: r.method,
					headers,
					data: r.method === 'GET' ? undefined : r.body,
					maxRedirects: 0
				});
				calls++;
				const what = `${r.method} ${path} (${r.type || 'no type'}, key ${r.key}) ${r.body.slice(0, 200)}`;
				const status = await judge(res, what);
				// Either a new link replaced the application's link, completely (the new one opens,
				// the old one is revoked), or the application's link still works.
				const created =
					status === 201 ? new URL(((await res.json()) as { url: string }).url).pathname : null;
				if (created) expect((await request.get(created)).status(), what).toBe(200);
				const current = (await request.get(link)).status();
				if (current !== 200) {
					expect(current, what).toBe(410);
					expect(
						created,
						`${what}: the link stopped working, and no new one was made`
					).not.toBeNull();
					link = created!;
				}
			}),
			{
				seed: SEED,
				numRuns: RUNS * 2,
				endOnFailure: true,
				plugins: [fc.timeout(RUN_TIMEOUT_MS)],
				examples: endpoint.methods.includes('POST') ? API_REGRESSIONS.map((r) => [r]) : []
			}
		);
		expect(calls).toBeGreaterThanOrEqual(RUNS * 2);
		expectNoneLogged(logFrom);
	});
}
