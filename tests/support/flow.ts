// Helpers for the end-to-end tests: the operator API, the sandbox's control API, and walking a
// merchant through the signing steps in a browser page.
import { createHash, createHmac } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
	expect,
	request as apiRequest,
	type APIRequestContext,
	type Browser,
	type BrowserContext,
	type BrowserContextOptions,
	type Page
} from '@playwright/test';
import { exampleCreateRequest } from '../../src/lib/server/onboarding/fixtures';
import { sandboxSsnKey } from '../../src/lib/server/sandbox/ssn';
import { E2E } from './env';

export const OFFICE = 1207;
export const SANDBOX = `${E2E.origin}/sandbox`;
/** The control API of the sandbox in the server at `origin` (a second server has its own). */
const controlAt = (origin: string) => `${origin}/sandbox/_sandbox`;
const CONTROL = controlAt(E2E.origin);

/** The demo applications of office 1207 (seeded by the sandbox). */
export const DEMO = {
	ordinary: 50001,
	secondOwner: 50002,
	seasonal: 50003,
	decided: 50004,
	identityFails: 50005,
	bureauDown: 50006
} as const;

export const SECTION_TITLES = {
	TermsAndConditions: 'Terms and Conditions',
	PaymentReceipt: 'Payment Receipt',
	IndividualGuaranty: 'Individual Guaranty',
	SeasonalAddendum: 'Seasonal Addendum',
	NextDayFunding: 'Next Day Funding'
} as const;
export type SectionKey = keyof typeof SECTION_TITLES;
/** What the sandbox presents by default (SeasonalAddendum is off). */
export const DEFAULT_SECTIONS: SectionKey[] = [
	'TermsAndConditions',
	'PaymentReceipt',
	'IndividualGuaranty',
	'NextDayFunding'
];

export const TEXT = {
	linkHeading: 'Review and sign your merchant application',
	consent: 'I agree to use electronic records and signatures for this application.',
	mismatch: 'Those answers didn’t match',
	oneMoreTry: '1 more try, with new questions',
	locked: 'Identity questions are locked for now',
	bureauDown: 'The credit bureau isn’t answering right now. No try was used.',
	signedTitle: 'Thank you — you’ve signed',
	declinedTitle: 'Your decision is recorded',
	beingSent: 'Being sent to the onboarding service',
	declineTitle: 'Decline this application?'
};

// ---------------------------------------------------------------------------------------------
// State shared by the test files of one run (workers=1 may restart its process between files).

interface RunState {
	/** Application ids the portal has seen (links, attempts, decisions): never reused. */
	usedApplications: number[];
	/** Every SSN typed into the portal during the run, for the final leak search. */
	ssns: string[];
	/** Names, emails, reasons and identity answers typed during the run, for the same search. */
	typed?: string[];
}

const stateFile = resolve(E2E.dir, 'run-state.json');

function readState(): RunState {
	if (!existsSync(stateFile)) return { usedApplications: [], ssns: [] };
	return JSON.parse(readFileSync(stateFile, 'utf8')) as RunState;
}

function writeState(s: RunState) {
	mkdirSync(E2E.dir, { recursive: true });
	writeFileSync(stateFile, JSON.stringify(s));
}

export function rememberSsn(ssn: string) {
	const s = readState();
	s.ssns.push(ssn);
	writeState(s);
}

export function typedSsns(): string[] {
	return readState().ssns;
}

/**
 * Remembers personal data typed into the portal (a name, an email, an identity answer), which no
 * log line may ever carry. Short values are left out: they occur in any text by chance.
 */
export function rememberTyped(...values: string[]) {
	const s = readState();
	const typed = new Set(s.typed ?? []);
	for (const v of values) if (v.trim().length >= 6) typed.add(v.trim());
	s.typed = [...typed];
	writeState(s);
}

export function typedValues(): string[] {
	return readState().typed ?? [];
}

/** An application made other than by newApplication (the start page's demo button, say). */
export function markUsed(applicationId: number) {
	const s = readState();
	if (!s.usedApplications.includes(applicationId)) s.usedApplications.push(applicationId);
	writeState(s);
}

// ---------------------------------------------------------------------------------------------
// Small utilities

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
export const digitsOf = (s: string) => s.replace(/\D/g, '');

/** A valid-looking SSN no one else in the run typed (area 100–665, never 000/666/9xx). */
export function freshSsn(): string {
	const used = new Set(typedSsns().map(digitsOf));
	for (;;) {
		const area = 100 + Math.floor(Math.random() * 566);
		const group = 10 + Math.floor(Math.random() * 90);
		const serial = 1000 + Math.floor(Math.random() * 9000);
		const ssn = `${area}-${group}-${serial}`;
		if (area !== 666 && !used.has(digitsOf(ssn))) return ssn;
	}
}

async function ok(res: { ok(): boolean; status(): number; text(): Promise<string> }, what: string) {
	if (!res.ok())
		throw new Error(`${what}: HTTP ${res.status()} ${(await res.text()).slice(0, 500)}`);
}

// ---------------------------------------------------------------------------------------------
// The operator API

export interface LinkBody {
	email?: string;
	expiresAt?: string;
	replace?: boolean;
}

export function linkPath(applicationId: number, officeId = OFFICE) {
	return `/api/v1/offices/${officeId}/applications/${applicationId}/signing-links`;
}

/** Raw call of the operator API (for status tests). */
export function postLink(
	request: APIRequestContext,
	applicationId: number,
	opts: {
		body?: LinkBody | string;
		key?: string | null;
		officeId?: number;
		headers?: Record<string, string>;
	} = {}
) {
	const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
	const key = opts.key === undefined ? E2E.operatorKey : opts.key;
	if (key !== null) headers.authorization = `Bearer ${key}`;
	const data =
		opts.body === undefined
			? undefined
			: typeof opts.body === 'string'
				? opts.body
				: JSON.stringify(opts.body);
	return request.post(linkPath(applicationId, opts.officeId), { headers, data });
}

/** Creates a signing link (201) and returns its URL, relative to the portal. */
export async function createLink(
	request: APIRequestContext,
	applicationId: number,
	body: LinkBody = {}
): Promise<{ url: string; path: string; expiresAt: string }> {
	markUsed(applicationId);
	const res = await postLink(request, applicationId, { body });
	expect(res.status(), `create link for ${applicationId}: ${await res.text()}`).toBe(201);
	const json = (await res.json()) as { url: string; expiresAt: string };
	return { ...json, path: new URL(json.url).pathname };
}

/**
 * A link that expires `ms` from now, with `outlive(page)`: waits on the page until just after it
 * has (half a second past, so that the server's clock agrees).
 */
export async function linkExpiringIn(
	request: APIRequestContext,
	applicationId: number,
	ms: number
) {
	const expiresAt = Date.now() + ms;
	const link = await createLink(request, applicationId, {
		expiresAt: new Date(expiresAt).toISOString()
	});
	const outlive = (page: Page) => page.waitForTimeout(Math.max(0, expiresAt - Date.now() + 500));
	return { ...link, outlive };
}

// ---------------------------------------------------------------------------------------------
// The sandbox's control API

export async function resetSandbox(request: APIRequestContext) {
	await ok(await request.post(`${CONTROL}/reset`), 'sandbox reset');
}

export interface Fault {
	status?: number;
	latencyMs?: number;
	hang?: boolean;
}

export async function setFault(request: APIRequestContext, operation: string, fault: Fault) {
	await ok(
		await request.put(`${CONTROL}/faults/${operation}`, { data: fault }),
		`fault ${operation}`
	);
}

export async function clearFaults(request: APIRequestContext) {
	await ok(await request.delete(`${CONTROL}/faults`), 'clear faults');
}

export async function setSection(
	request: APIRequestContext,
	section: SectionKey,
	override: { html?: string | null; presented?: boolean },
	officeId = OFFICE
) {
	await ok(
		await request.put(`${CONTROL}/acceptancelanguage/${officeId}/${section}`, { data: override }),
		`acceptance override ${section}`
	);
}

export async function clearSections(request: APIRequestContext, officeId = OFFICE) {
	await ok(
		await request.delete(`${CONTROL}/acceptancelanguage/${officeId}`),
		'clear acceptance overrides'
	);
}

export async function setTimeLimit(request: APIRequestContext, timeLimitSeconds: number) {
	await ok(
		await request.put(`${CONTROL}/settings`, { data: { timeLimitSeconds } }),
		'sandbox settings'
	);
}

/** A decision as the sandbox received it: the body less MerchantSSN, plus its digest. */
export interface ReceivedDecision {
	body: Record<string, unknown>;
	/** Ours keeps a keyed HMAC (see carriesSsn); a service that keeps a plain SHA-256, that. */
	ssnHmac: string;
	ssnSha256: string;
	ssnLast4: string;
	merchantDecisionId: number | null;
	raw: unknown;
}

/**
 * Whether the decision the service received carries `ssn`. Our sandbox keeps an HMAC of the
 * digits under a key derived from the portal's encryption key, which is in the test server's data
 * folder; a service that keeps a plain SHA-256 is compared by that.
 */
export function carriesSsn(d: ReceivedDecision, ssn: string): boolean {
	const digits = digitsOf(ssn);
	if (!d.ssnHmac) return d.ssnSha256 !== '' && d.ssnSha256 === sha256(digits);
	const stored = readFileSync(resolve(E2E.dataDir, 'encryption.key'), 'utf8').trim();
	const key = sandboxSsnKey(Buffer.from(stored, 'base64'));
	return createHmac('sha256', key).update(digits).digest('hex') === d.ssnHmac;
}

function normalizeDecision(raw: unknown): ReceivedDecision {
	let r = raw as Record<string, unknown>;
	if (Array.isArray(raw)) r = raw[raw.length - 1] as Record<string, unknown>;
	if (r && typeof r.decision === 'object' && r.decision !== null)
		r = { ...r, ...(r.decision as Record<string, unknown>) };
	const body = (r.body ?? r.Body ?? r.request ?? r.Request ?? r) as Record<string, unknown>;
	const pick = (...keys: string[]) => {
		for (const k of keys) {
			if (r[k] !== undefined) return r[k];
			if (body[k] !== undefined) return body[k];
		}
		return undefined;
	};
	const id = pick('merchantDecisionId', 'MerchantDecisionID', 'id');
	return {
		body,
		ssnHmac: String(pick('ssnHmac', 'SsnHmac') ?? ''),
		ssnSha256: String(pick('ssnSha256', 'SsnSha256') ?? ''),
		ssnLast4: String(pick('ssnLast4', 'SsnLast4') ?? ''),
		merchantDecisionId: typeof id === 'number' ? id : id ? Number(id) : null,
		raw
	};
}

/** What the sandbox received for an application, or null when it has nothing. */
export async function receivedDecision(
	request: APIRequestContext,
	applicationId: number,
	/** Another portal's sandbox (support/second-server.ts). */
	sandbox = SANDBOX
): Promise<ReceivedDecision | null> {
	const res = await request.get(`${sandbox}/_sandbox/decisions/${applicationId}`);
	if (res.status() === 404) return null;
	await ok(res, `decision of ${applicationId}`);
	const raw = (await res.json()) as unknown;
	if (raw === null || (Array.isArray(raw) && raw.length === 0)) return null;
	return normalizeDecision(raw);
}

export async function waitForDecision(
	request: APIRequestContext,
	applicationId: number,
	timeoutMs = 15_000
) {
	let found: ReceivedDecision | null = null;
	await expect
		.poll(
			async () => {
				found = await receivedDecision(request, applicationId);
				return found !== null;
			},
			{ timeout: timeoutMs, intervals: [250, 500, 1000] }
		)
		.toBe(true);
	return found as unknown as ReceivedDecision;
}

// ---------------------------------------------------------------------------------------------
// Applications

type Obj = Record<string, unknown>;

export interface TestApplication {
	id: number;
	/** The create request: the owner's facts the identity questions are built from. */
	doc: Obj;
	business: string;
	first: string;
	last: string;
	email: string;
}

let counter = 0;

/**
 * Creates a fresh application in the sandbox (office 1207) that no earlier test used, so that
 * the portal's own records (links, identity attempts, decisions — which a sandbox reset does not
 * touch) start empty for it.
 */
export async function newApplication(
	request: APIRequestContext,
	label: string,
	/** The application's rep by number; the example's is 31 (Sam Ortiz, who has an account). */
	options: { repNo?: number } = {}
): Promise<TestApplication> {
	counter++;
	const tag =
		`${label.replace(/[^A-Za-z ]/g, '')} ${String.fromCharCode(65 + (counter % 26))}`.trim();
	const business = `${tag} Test Shop`;
	const req = exampleCreateRequest() as unknown as Obj;
	const names = req.BusinessNames as Obj;
	names.DBA_Name = business;
	names.Legal_Name = `${business} LLC`;
	names.DBA_Contact = 'Morgan Testwell';
	const owner = req.OwnerOfficer as Obj;
	owner.Ownr1_Legal_Name_First = 'Morgan';
	owner.Ownr1_Legal_Name_Last = 'Testwell';
	owner.Ownr1_Email = 'morgan@testshop.example';
	owner.Ownr1_Address = '77 Quarry Hill Road';
	owner.Ownr1_City = 'Northfield';
	owner.Ownr1_ZIP = '55057';
	owner.Ownr1_DOB = '5/9/1979';
	(req.Profile as Obj).Bank_Name = 'Cannon River Savings Bank';
	if (options.repNo !== undefined) req.RepNo = options.repNo;
	const used = new Set(readState().usedApplications);
	// A reset restarts the sandbox's ids at 50101 while the run's used ids pile up (over 200 in a
	// whole run): room for every one of them.
	for (let i = 0; i < used.size + 50; i++) {
		const res = await request.post(`${SANDBOX}/api/office/${OFFICE}/application`, { data: req });
		await ok(res, 'create application');
		const created = (await res.json()) as { ApplicationID: number };
		const id = Number(created.ApplicationID);
		if (used.has(id)) continue; // a reset restarted the sandbox's ids: take the next one
		markUsed(id);
		rememberTyped('Testwell', 'morgan@testshop.example');
		return {
			id,
			doc: req,
			business,
			first: 'Morgan',
			last: 'Testwell',
			email: 'morgan@testshop.example'
		};
	}
	throw new Error('could not create an unused application');
}

// ---------------------------------------------------------------------------------------------
// Identity answers, by the sandbox's documented rule (the owner's own facts, in capitals; when
// the fact is not among the choices, NONE OF THE ABOVE).

const SUFFIXES: Record<string, string> = {
	STREET: 'ST',
	AVENUE: 'AVE',
	ROAD: 'RD',
	DRIVE: 'DR',
	LANE: 'LN',
	COURT: 'CT',
	BOULEVARD: 'BLVD',
	PLACE: 'PL',
	TERRACE: 'TER',
	CIRCLE: 'CIR',
	PARKWAY: 'PKWY',
	HIGHWAY: 'HWY'
};

function streetOf(address: string): string {
	const words = address
		.split(/[,#]/)[0]!
		.toUpperCase()
		.replace(/[^A-Z0-9 ]/g, ' ')
		.split(/\s+/)
		.filter((w) => w !== '');
	while (words.length > 1 && /^\d+[A-Z]?$/.test(words[0]!)) words.shift();
	const last = words.length - 1;
	if (last > 0 && SUFFIXES[words[last]!]) words[last] = SUFFIXES[words[last]!]!;
	return words.join(' ');
}

const up = (v: unknown) => (typeof v === 'string' ? v.trim().toUpperCase() : '');

/** The right answer's text for a question prompt, from the application document. */
export function factFor(prompt: string, doc: Obj): string {
	const o = doc.OwnerOfficer as Obj;
	const p = prompt.toLowerCase();
	if (p.includes('street')) return streetOf(String(o.Ownr1_Address ?? ''));
	if (p.includes('cit')) return up(o.Ownr1_City);
	if (p.includes('born') || p.includes('year'))
		return String(o.Ownr1_DOB ?? '').split('/')[2] ?? '';
	if (p.includes('zip')) return up(o.Ownr1_ZIP).slice(0, 5);
	if (p.includes('bank')) return up((doc.Profile as Obj).Bank_Name);
	if (p.includes('business')) return up((doc.BusinessNames as Obj).DBA_Name);
	throw new Error(`unknown identity question: ${prompt}`);
}

export const NONE = 'NONE OF THE ABOVE';

/** The right answers by the documented rule, read off the page: `q-{QuestionID}` → ChoiceID. */
export async function ruleAnswers(page: Page, doc: Obj): Promise<Record<string, string>> {
	const out: Record<string, string> = {};
	for (const fs of await page.locator('fieldset').all()) {
		const prompt = (await fs.locator('legend').innerText()).trim();
		const choices = (await fs.locator('label').allInnerTexts()).map((t) => t.trim());
		const fact = factFor(prompt, doc);
		const right = choices.includes(fact) ? fact : NONE;
		const input = fs.getByLabel(right, { exact: true });
		out[(await input.getAttribute('name'))!] = (await input.getAttribute('value'))!;
	}
	return out;
}

/**
 * The right answers of the set on screen, from the sandbox's control API (the page never shows
 * the QuestionSetID): `q-{QuestionID}` → ChoiceID. The shared server's sandbox, or that of the
 * server at `origin` (a second server's).
 */
export async function controlAnswers(
	request: APIRequestContext,
	applicationId: number,
	officeId = OFFICE,
	origin = E2E.origin
): Promise<Record<string, string>> {
	const res = await request.get(
		`${controlAt(origin)}/answers/latest/${applicationId}?office=${officeId}`
	);
	await ok(res, `answers of ${applicationId}`);
	const body = (await res.json()) as {
		Answers: { QuestionID: number | string; ChoiceID: number | string }[];
	};
	return Object.fromEntries(body.Answers.map((a) => [`q-${a.QuestionID}`, String(a.ChoiceID)]));
}

/**
 * Ticks the right answers of the set on screen (or a wrong one for every question) and submits;
 * the right ones from the sandbox of the server at `origin` (the shared one's unless given).
 */
export async function answerQuestions(
	page: Page,
	applicationId: number,
	mode: 'right' | 'wrong',
	origin = E2E.origin
) {
	await ready(page);
	const sets = page.locator('fieldset');
	await expect(sets).toHaveCount(5);
	// Asked as the tests' own client, without the browser's cookies: a tablet handed to a merchant
	// gets 403 from the sandbox's control API (hooks.server.ts).
	const api = await apiRequest.newContext();
	const right = await controlAnswers(api, applicationId, OFFICE, origin).finally(() =>
		api.dispose()
	);
	expect(Object.keys(right)).toHaveLength(5);
	for (const fs of await sets.all()) {
		const radios = fs.locator('input[type=radio]');
		const name = (await radios.first().getAttribute('name'))!;
		const values = await radios.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
		expect(values, `question ${name}`).toContain(right[name]);
		const pick = mode === 'right' ? right[name]! : values.find((v) => v !== right[name])!;
		const choice = fs.locator(`input[type=radio][value="${pick}"]`);
		await choice.check();
		// A right answer is personal data: it must never reach a log (zz-no-ssn-leak).
		const text = (await choice.evaluate((el) => el.closest('label')?.textContent ?? '')).trim();
		if (mode === 'right' && text !== NONE) rememberTyped(text);
	}
	await page.getByRole('button', { name: 'Submit answers' }).click();
}

// ---------------------------------------------------------------------------------------------
// Walking the steps

const noScript = new WeakSet<BrowserContext>();

/** A context with JavaScript off (the helpers then never wait for hydration). */
export async function noScriptContext(browser: Browser, options: BrowserContextOptions = {}) {
	const context = await browser.newContext({ ...options, javaScriptEnabled: false });
	noScript.add(context);
	return context;
}

/**
 * Waits until the page's script has started (the layout marks <html class="js">), so a click
 * goes through the enhanced form. A click before that is a plain form post — what the no-script
 * tests exercise on purpose.
 */
export async function ready(page: Page) {
	if (noScript.has(page.context())) return;
	await page.locator('html.js').waitFor({ state: 'attached' });
}

/**
 * Holds the page's scripts back, as on a slow phone, until the function it returns lets them go:
 * what is done meanwhile is done to the server's page, which hydration then takes over.
 */
export async function holdScripts(page: Page): Promise<() => void> {
	let release = () => {};
	const held = new Promise<void>((resolve) => (release = resolve));
	await page.route('**/_app/immutable/**/*.js', async (route) => {
		await held;
		await route.continue();
	});
	return release;
}

/** The agreement's address: as Start leaves it (marked, see JUST_STARTED in guard.ts), or not. */
export const AT_TERMS = /\/sign\/terms(\?started)?$/;

export async function openLinkAndStart(page: Page, linkPath: string) {
	await page.goto(linkPath);
	await expect(page.getByRole('heading', { level: 1, name: TEXT.linkHeading })).toBeVisible();
	await ready(page);
	await page.getByRole('button', { name: 'Start' }).click();
	await expect(page).toHaveURL(AT_TERMS);
}

export async function agreeToTerms(page: Page) {
	await ready(page);
	await page.getByLabel(TEXT.consent).check();
	await page.getByRole('button', { name: 'Continue' }).click();
	await expect(page).toHaveURL(/\/sign\/identity$/);
}

export async function startQuestions(page: Page) {
	await ready(page);
	await page.getByRole('button', { name: 'Start the questions' }).click();
	await expect(page.locator('fieldset')).toHaveCount(5);
}

export async function passIdentity(page: Page, applicationId: number) {
	await startQuestions(page);
	await answerQuestions(page, applicationId, 'right');
	await expect(page).toHaveURL(/\/sign\/sign$/);
}

export interface SignerInput {
	first?: string;
	last?: string;
	email?: string;
	notificationEmail?: string;
	ssn: string;
	/** Section titles to tick; all shown ones when absent. */
	sections?: string[];
	/** The typed signature; the first and last name on the form when absent. */
	signature?: string;
}

/** Fills the sign form (does not submit). */
export async function fillSignForm(page: Page, input: SignerInput) {
	await ready(page);
	const group = page.getByRole('group', { name: 'Confirm each document' });
	const boxes = group.getByRole('checkbox');
	for (const box of await boxes.all()) {
		const label = (
			await box.evaluate((el) => (el as HTMLInputElement).labels?.[0]?.textContent ?? '')
		).trim();
		const want =
			!input.sections ||
			input.sections.some((t) => label === `I have read and accept the ${t} section`);
		if (want) await box.check();
		else await box.uncheck();
	}
	await fillSigner(page, input);
	const name = `${await page.getByLabel('First name').inputValue()} ${await page.getByLabel('Last name').inputValue()}`;
	await page.getByLabel('Type your full name to sign').fill(input.signature ?? name);
}

/** The name, email and SSN fields (shared by accept and decline). */
export async function fillSigner(page: Page, input: SignerInput) {
	await ready(page);
	rememberTyped(
		...[input.first, input.last, input.email, input.notificationEmail].filter(
			(v): v is string => v !== undefined
		)
	);
	if (input.first !== undefined) await page.getByLabel('First name').fill(input.first);
	if (input.last !== undefined) await page.getByLabel('Last name').fill(input.last);
	if (input.email !== undefined) await page.getByLabel('Email', { exact: true }).fill(input.email);
	if (input.notificationEmail !== undefined)
		await page.getByLabel('Notification email').fill(input.notificationEmail);
	rememberSsn(input.ssn);
	await page.getByLabel('Social Security Number').fill(input.ssn);
}

export type Step = 'link' | 'terms' | 'identity' | 'sign' | 'done';

/** A fresh link for `app`, walked in `page` up to (and landing on) `step`. */
export async function walkTo(
	page: Page,
	request: APIRequestContext,
	app: TestApplication,
	step: Step,
	opts: { ssn?: string } = {}
): Promise<{ link: string }> {
	const { path } = await createLink(request, app.id);
	if (step === 'link') {
		await page.goto(path);
		return { link: path };
	}
	await openLinkAndStart(page, path);
	if (step === 'terms') return { link: path };
	await agreeToTerms(page);
	if (step === 'identity') return { link: path };
	await passIdentity(page, app.id);
	if (step === 'sign') return { link: path };
	await fillSignForm(page, { ssn: opts.ssn ?? freshSsn() });
	await page.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(page).toHaveURL(/\/sign\/done$/);
	return { link: path };
}

/**
 * A form post replayed with the session cookie, as a browser without script sends it (same
 * origin, asking for HTML), so the answer is the plain 303 or page a browser would get.
 */
export function replayPost(page: Page, path: string, form: Record<string, string>) {
	return page.request.post(path, {
		form,
		headers: { origin: E2E.origin, accept: 'text/html,application/xhtml+xml' },
		maxRedirects: 0
	});
}
