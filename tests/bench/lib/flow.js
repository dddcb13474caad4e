// Walks merchants through the real signing flow over HTTP, as a browser without script would
// (plain form posts, each form's own hidden fields sent back), to get sessions at each step.
// The right identity answers come from the sandbox's control API.

export const OFFICE = 1207;
export const SESSION_COOKIE = 'signing_session';
export const REP_COOKIE = 'rep_session';

/** @typedef {{ status: number, location: string | null, text: string, setCookies: string[] }} Answer */
/** @typedef {{ action: string, fields: Record<string, string>, names: string[] }} Form */

/** @param {string} s */
const decode = (s) =>
	s
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');

/**
 * @param {string} tag
 * @param {string} name
 */
function attr(tag, name) {
	const m = new RegExp(`\\s${name}=(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
	return m ? decode(m[1] ?? m[2] ?? m[3] ?? '') : null;
}

/**
 * The page's forms: where each posts, its hidden fields (whatever the page puts there: a terms
 * version, a token), and the names of all its inputs.
 * @param {string} html
 * @returns {Form[]}
 */
export function parseForms(html) {
	/** @type {Form[]} */
	const forms = [];
	for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
		const open = m[1] ?? '';
		const body = m[2] ?? '';
		/** @type {Record<string, string>} */
		const fields = {};
		/** @type {string[]} */
		const names = [];
		for (const input of body.matchAll(/<(?:input|button)\b[^>]*>/gi)) {
			const tag = input[0];
			const name = attr(tag, 'name');
			if (!name) continue;
			names.push(name);
			if (attr(tag, 'type') === 'hidden') fields[name] = attr(tag, 'value') ?? '';
		}
		forms.push({ action: attr(` ${open}`, 'action') ?? '', fields, names });
	}
	return forms;
}

/** A client with its own cookies; redirects are returned, not followed. */
export class Client {
	/** @param {string} origin */
	constructor(origin) {
		this.origin = origin;
		/** @type {Map<string, string>} */
		this.cookies = new Map();
	}

	get cookieHeader() {
		return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
	}

	/**
	 * @param {string} path
	 * @param {RequestInit} [init]
	 * @returns {Promise<Answer>}
	 */
	async send(path, init = {}) {
		const headers = new Headers(init.headers);
		if (this.cookies.size > 0) headers.set('cookie', this.cookieHeader);
		const res = await fetch(this.origin + path, { ...init, headers, redirect: 'manual' });
		const setCookies = res.headers.getSetCookie();
		for (const c of setCookies) {
			const [pair] = c.split(';');
			const eq = (pair ?? '').indexOf('=');
			if (eq > 0)
				this.cookies.set((pair ?? '').slice(0, eq).trim(), (pair ?? '').slice(eq + 1).trim());
		}
		return {
			status: res.status,
			location: res.headers.get('location'),
			text: await res.text(),
			setCookies
		};
	}

	/** @param {string} path */
	get(path) {
		return this.send(path, { headers: { accept: 'text/html' } });
	}

	/**
	 * A plain form post from one of the portal's own pages.
	 * @param {string} path
	 * @param {Record<string, string>} fields
	 */
	post(path, fields) {
		return this.send(path, {
			method: 'POST',
			headers: {
				accept: 'text/html',
				origin: this.origin,
				'sec-fetch-site': 'same-origin',
				'content-type': 'application/x-www-form-urlencoded'
			},
			body: new URLSearchParams(fields).toString()
		});
	}
}

/**
 * @param {Answer} a
 * @param {number} status
 * @param {string} what
 * @param {string} [location]
 */
function expectAnswer(a, status, what, location) {
	if (a.status !== status || (location !== undefined && a.location !== location)) {
		throw new Error(
			`${what}: expected ${status}${location ? ` → ${location}` : ''}, got ${a.status}${a.location ? ` → ${a.location}` : ''}: ${a.text.slice(0, 300)}`
		);
	}
}

/**
 * @param {string} html
 * @param {(f: Form) => boolean} which
 * @param {string} what
 */
function form(html, which, what) {
	const found = parseForms(html).find(which);
	if (!found) throw new Error(`${what}: no such form on the page`);
	return found;
}

/** A valid-looking SSN (area 100–665 but 666, never 000/9xx); never printed. */
function someSsn() {
	const r = (/** @type {number} */ lo, /** @type {number} */ n) =>
		lo + Math.floor(Math.random() * n);
	let area = r(100, 566);
	if (area === 666) area = 667;
	return `${area}${r(10, 90)}${r(1000, 9000)}`;
}

/**
 * @typedef {{ origin: string, operatorKey: string, createRequest: Record<string, any> }} FlowContext
 * @typedef {'link' | 'terms' | 'identity' | 'sign' | 'done' | 'rep'} Step
 * @typedef {{ applicationId: number, linkPath: string, cookie: string | null }} Signer
 */

/**
 * A new application in the sandbox: each signer needs its own (one active link, one decision).
 * @param {FlowContext} ctx
 * @param {number} n
 */
async function newApplication(ctx, n) {
	const body = structuredClone(ctx.createRequest);
	body.BusinessNames.DBA_Name = `Bench Signer ${n} Bakery`;
	body.BusinessNames.Legal_Name = `Bench Signer ${n} Bakery LLC`;
	const res = await fetch(`${ctx.origin}/sandbox/api/office/${OFFICE}/application`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body)
	});
	if (!res.ok) throw new Error(`create application: HTTP ${res.status}`);
	return Number(/** @type {{ ApplicationID: number }} */ (await res.json()).ApplicationID);
}

/**
 * @param {FlowContext} ctx
 * @param {number} applicationId
 */
async function newLink(ctx, applicationId) {
	const res = await fetch(
		`${ctx.origin}/api/v1/offices/${OFFICE}/applications/${applicationId}/signing-links`,
		{ method: 'POST', headers: { authorization: `Bearer ${ctx.operatorKey}` } }
	);
	if (res.status !== 201) throw new Error(`create link: HTTP ${res.status} ${await res.text()}`);
	return new URL(/** @type {{ url: string }} */ (await res.json()).url).pathname;
}

/**
 * @param {FlowContext} ctx
 * @param {number} applicationId
 * @returns {Promise<Record<string, string>>}
 */
async function rightAnswers(ctx, applicationId) {
	const res = await fetch(
		`${ctx.origin}/sandbox/_sandbox/answers/latest/${applicationId}?office=${OFFICE}`
	);
	if (!res.ok) throw new Error(`answers of ${applicationId}: HTTP ${res.status}`);
	const body = /** @type {{ Answers: { QuestionID: number, ChoiceID: number }[] }} */ (
		await res.json()
	);
	return Object.fromEntries(body.Answers.map((a) => [`q-${a.QuestionID}`, String(a.ChoiceID)]));
}

/**
 * A fresh application, a link, and a session walked up to `step` (landing on it).
 * @param {FlowContext} ctx
 * @param {Step} step
 * @param {number} n a number for the business name
 * @returns {Promise<Signer>}
 */
export async function walkTo(ctx, step, n) {
	const applicationId = await newApplication(ctx, n);
	const linkPath = await newLink(ctx, applicationId);
	const c = new Client(ctx.origin);
	const done = () => ({
		applicationId,
		linkPath,
		cookie: c.cookies.has(SESSION_COOKIE)
			? `${SESSION_COOKIE}=${c.cookies.get(SESSION_COOKIE)}`
			: null
	});

	const linkPage = await c.get(linkPath);
	expectAnswer(linkPage, 200, 'link page');
	if (step === 'link') return done();
	const start = form(linkPage.text, (f) => f.action.endsWith('?/start'), 'Start');
	expectAnswer(
		await c.post(`${linkPath}?/start`, start.fields),
		303,
		'Start',
		'/sign/terms?started'
	);

	const terms = await c.get('/sign/terms');
	expectAnswer(terms, 200, 'terms page');
	if (step === 'terms') return done();
	const consent = form(terms.text, (f) => f.names.includes('consent'), 'consent');
	expectAnswer(
		await c.post('/sign/terms?/consent', { ...consent.fields, consent: 'yes' }),
		303,
		'consent',
		'/sign/identity'
	);

	const intro = await c.get('/sign/identity');
	expectAnswer(intro, 200, 'identity page');
	if (step === 'identity') return done();
	const begin = form(intro.text, (f) => f.action.endsWith('?/start'), 'start questions');
	expectAnswer(
		await c.post('/sign/identity?/start', begin.fields),
		303,
		'start questions',
		'/sign/identity'
	);
	const questions = await c.get('/sign/identity');
	expectAnswer(questions, 200, 'questions');
	const answer = form(questions.text, (f) => f.action.endsWith('?/answer'), 'answers');
	const answers = await rightAnswers(ctx, applicationId);
	expectAnswer(
		await c.post('/sign/identity?/answer', { ...answer.fields, ...answers }),
		303,
		'answers',
		'/sign/sign'
	);

	const sign = await c.get('/sign/sign');
	expectAnswer(sign, 200, 'sign page');
	if (step === 'sign') return done();
	const accept = form(sign.text, (f) => f.action.endsWith('?/accept'), 'accept');
	/** @type {Record<string, string>} */
	const fields = { ...accept.fields };
	for (const name of accept.names) if (name.startsWith('section-')) fields[name] = 'yes';
	Object.assign(fields, {
		firstName: 'Dana',
		lastName: `Bench${n}`,
		email: `signer${n}@bench.example`,
		notificationEmail: `signer${n}@bench.example`,
		ssn: someSsn(),
		signature: `Dana Bench${n}`
	});
	expectAnswer(await c.post('/sign/sign?/accept', fields), 303, 'accept', '/sign/done');
	expectAnswer(await c.get('/sign/done'), 200, 'done page');
	return done();
}

/**
 * A rep signed in through the sign-in form, as a browser without script would: a session of
 * their own, on the console's list.
 * @param {string} origin
 * @param {{ email: string, password: string }} rep
 * @returns {Promise<Signer>}
 */
export async function signInRep(origin, rep) {
	const c = new Client(origin);
	const page = await c.get('/rep/login');
	expectAnswer(page, 200, 'sign-in page');
	const signIn = form(page.text, (f) => f.names.includes('password'), 'sign in');
	expectAnswer(
		await c.post('/rep/login', { ...signIn.fields, email: rep.email, password: rep.password }),
		303,
		'sign in',
		'/rep'
	);
	const cookie = c.cookies.get(REP_COOKIE);
	if (!cookie) throw new Error('sign in: no rep session cookie');
	expectAnswer(await c.get('/rep'), 200, 'console');
	return { applicationId: 0, linkPath: '/rep', cookie: `${REP_COOKIE}=${cookie}` };
}

/**
 * Runs `fn` over 0…count-1 with at most `parallel` at a time.
 * @template T
 * @param {number} count
 * @param {number} parallel
 * @param {(i: number) => Promise<T>} fn
 * @returns {Promise<T[]>}
 */
export async function pool(count, parallel, fn) {
	/** @type {T[]} */
	const out = new Array(count);
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const i = next++;
			out[i] = await fn(i);
		}
	};
	await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
	return out;
}

/**
 * GET with a signer's cookie, as the load generator will send it; throws unless 200.
 * @param {string} origin
 * @param {string} path
 * @param {string | null} cookie
 */
export async function fetchAs(origin, path, cookie) {
	const res = await fetch(origin + path, {
		headers: cookie ? { cookie, accept: 'text/html' } : { accept: 'text/html' },
		redirect: 'manual'
	});
	const body = new Uint8Array(await res.arrayBuffer());
	if (res.status !== 200) {
		throw new Error(
			`GET ${path}: expected 200, got ${res.status} ${res.headers.get('location') ?? ''}`
		);
	}
	return { body, type: res.headers.get('content-type') ?? '' };
}
