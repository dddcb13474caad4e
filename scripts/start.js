// Starts the built portal (adapter-node reads PORT, HOST, ORIGIN, ADDRESS_HEADER, XFF_DEPTH…)
// and prints where everything is, with a ready signing link for a demo application.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import {
	ADAPTER_SETTINGS,
	adapterProblems,
	defaultHost
} from '../src/lib/server/config/adapter.js';
import { answerClientErrors } from '../src/lib/server/http/client-error.js';
import { drainUnreadBodies } from '../src/lib/server/http/drain.js';
import { probeMailServer } from '../src/lib/server/mail/probe.js';

if (!existsSync('build/index.js')) {
	// The build, and the migrations the portal applies at start (./drizzle), are read from the
	// current folder: started from elsewhere, say where to start it from.
	const repository = resolve(dirname(fileURLToPath(import.meta.url)), '..');
	console.error(
		repository !== process.cwd() && existsSync(resolve(repository, 'package.json'))
			? `Start the portal from its own folder: cd ${repository} first: it reads build/ and drizzle/ from the folder it is started in.`
			: 'No build found. Run `npm start` (which builds first) or `npm run build`.'
	);
	process.exit(1);
}

// While the sandbox is on, its control API and the development mailbox stay on this machine unless
// HOST says otherwise (see defaultHost).
const host = defaultHost(process.env);
if (host) process.env.HOST = host;

// adapter-node reads its settings as the build loads, and a bad one ended in its stack trace:
// they are checked first, in the words the portal uses for its own (which it checks on start).
const problems = adapterProblems(process.env);
// With a real Onboarding Service the portal makes links for merchants elsewhere: a link to
// localhost (the default below, for a developer's machine) would reach none of them.
if (!process.env.ORIGIN?.trim() && process.env.ONBOARDING_BASE_URL?.trim()) {
	problems.push(
		'ORIGIN: must be set with ONBOARDING_BASE_URL: the address merchants open their signing links at, such as https://sign.example.com'
	);
}
if (problems.length > 0) {
	// The portal's own check, as it starts, lists these with every other problem (startApp): each
	// setting adapter-node would stop on first, with its stack trace, is taken out of its way.
	for (const name of Object.keys(ADAPTER_SETTINGS)) {
		if (problems.some((p) => p.startsWith(`${name}:`))) delete process.env[name];
	}
	process.env.PORTAL_START_PROBLEMS = JSON.stringify(problems);
}

const port = process.env.PORT || '3000';
const local = `http://127.0.0.1:${port}`;
// Without ORIGIN, adapter-node takes every request to have come over https; on a developer's
// machine it is plain http on localhost. Behind a proxy or on a LAN address, set ORIGIN.
process.env.ORIGIN ||= `http://localhost:${port}`;
const origin = process.env.ORIGIN.replace(/\/+$/, '');

const { server } = await import(resolve('build/index.js'));
// A body the app answered without reading no longer stops its connection (see drain.js).
drainUnreadBodies(server.server);
// A request Node cannot read is told why in words, not with an empty page (see client-error.js).
answerClientErrors(server.server);

// Stopped (Ctrl-C, SIGTERM) while this script still asks the portal for its demo link: the portal
// stops by itself (adapter-node, whose own handlers are in place now), and there is then nothing
// to announce, nor a refused connection to report as a fault.
let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => (stopping = true));

/** A file in the data folder, where the portal keeps what it generates. */
const dataFile = (name) => resolve(process.env.DATA_DIR || './data', name);

async function health() {
	for (let i = 0; i < 600; i++) {
		try {
			const res = await fetch(`${local}/healthz`);
			if (res.ok) return await res.json();
		} catch {
			/* not listening yet */
		}
		await new Promise((r) => setTimeout(r, 100));
	}
	return null;
}

/** As the portal takes it (src/lib/server/app/context.ts): with DATABASE_URL, only the setting. */
function operatorKey() {
	if (process.env.OPERATOR_API_KEY) return process.env.OPERATOR_API_KEY;
	if (process.env.DATABASE_URL) return null;
	const file = dataFile('operator-api-key');
	return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

/**
 * The demo rep seeded on embedded defaults (src/lib/server/reps/demo.ts): its password is
 * generated into the data folder. Never with DATABASE_URL, where reps are the operator's own.
 */
function demoRep() {
	if (process.env.DATABASE_URL) return null;
	const file = dataFile('demo-rep-password');
	const email = 'sam.ortiz@office1207.example';
	// Disabled with `npm run reps -- disable` (src/lib/server/reps/demo.ts): no password that
	// cannot sign in.
	if (existsSync(dataFile('demo-rep-disabled'))) return { email, password: null, disabled: true };
	// Gone once the demo rep's password was changed (in the console), or reset with `npm run reps`.
	if (!existsSync(file)) return { email, password: null };
	return { email, password: readFileSync(file, 'utf8').trim() };
}

/** The demo applications a merchant can finish (50005 and 50006 show the bureau's refusals). */
const FINISHABLE = [50001, 50002, 50003];

/** Where a start keeps the demo link it printed, so that the next start can print it again. */
const DEMO_FILE = 'demo-link.json';

/** The link an earlier start printed, while it still opens (not used, replaced or expired). */
async function earlierDemoLink() {
	try {
		const kept = JSON.parse(readFileSync(dataFile(DEMO_FILE), 'utf8'));
		const path = new URL(kept.url).pathname;
		const res = await fetch(`${local}${path}`, { redirect: 'manual' });
		await res.arrayBuffer();
		// At this start's ORIGIN: the one it was made under may have changed since.
		return res.status === 200 ? { ...kept, url: `${origin}${path}` } : null;
	} catch {
		return null;
	}
}

/**
 * The demo link: the one an earlier start printed while it still opens, else a new one for the
 * first of the demo applications a merchant can finish that has no decision, no link out and no
 * decline since its last link. A link a rep sent stays usable, and a merchant's "no" stands
 * ("replace": false). Otherwise why there is none. A key the API
 * refuses stops at the first try: each refusal counts against the address's limit.
 */
async function demoLink(key) {
	const earlier = await earlierDemoLink();
	if (earlier) return earlier;
	if (!key) return { why: 'no OPERATOR_API_KEY, so the operator API is closed' };
	for (const id of FINISHABLE) {
		const res = await fetch(`${local}/api/v1/offices/1207/applications/${id}/signing-links`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${key}`,
				'content-type': 'application/json',
				// So that the console names it a demo link, not one from the operator's systems.
				'x-portal-demo': 'start'
			},
			body: JSON.stringify({ replace: false })
		}).catch(() => null);
		if (!res) return { why: 'the portal did not answer' };
		if (res.status === 201) {
			const { url } = await res.json();
			writeFileSync(dataFile(DEMO_FILE), JSON.stringify({ id, url }) + '\n', { mode: 0o600 });
			return { id, url };
		}
		if (res.status !== 409) return { why: `the operator API answered ${res.status}` };
	}
	const range = `${FINISHABLE[0]}–${FINISHABLE.at(-1)}, the demo applications a merchant can finish,`;
	const over = process.env.DATABASE_URL
		? 'emptying the database DATABASE_URL names while the portal is stopped starts over with fresh demo data'
		: `removing the data folder (${dataFile('')}) while the portal is stopped starts over with fresh demo data`;
	const fresh = `"Start a demo signing" on ${origin}/ makes a new one`;
	return (await demoDecided()) === FINISHABLE.length
		? { why: `${range} are all decided; ${fresh}, or ${over}` }
		: {
				why: `${range} each have a decision, a link out or the merchant's decline; ${fresh}, a rep can send a new link from the console for one that is not decided, or ${over}`
			};
}

/** How many of the demo applications the embedded service lists as decided (null: unknown). */
async function demoDecided() {
	try {
		const res = await fetch(`${local}/sandbox/api/office/1207/application/`);
		const list = await res.json();
		return list.filter(
			(a) => FINISHABLE.includes(Number(a.ApplicationID)) && a.Status !== 'Pending Signature'
		).length;
	} catch {
		return null;
	}
}

/**
 * The Onboarding Service's address as the log may show it (no user or password), and whether
 * anything answers there: any HTTP answer will do, since its paths need an office. A wrong host,
 * port or scheme then shows at start, not at the first merchant.
 */
async function service(base) {
	let url;
	try {
		url = new URL(base);
	} catch {
		return base;
	}
	url.username = '';
	url.password = '';
	const shown = url.href.replace(/\/$/, '');
	try {
		const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(5000) });
		await res.arrayBuffer().catch(() => {});
		return `${shown}  (answers, HTTP ${res.status})`;
	} catch (err) {
		const code = err?.cause?.code ?? (err?.name === 'TimeoutError' ? 'no answer in 5 s' : null);
		return `${shown}  (NOT ANSWERING${code ? `: ${code}` : ''}; check ONBOARDING_BASE_URL)`;
	}
}

/** Whom merchants are pointed to where a rep has no account (OFFICE_CONTACT_*, checked at start). */
function officeContactLine() {
	const [name, email] = ['OFFICE_CONTACT_NAME', 'OFFICE_CONTACT_EMAIL'].map((k) =>
		process.env[k]?.trim()
	);
	return name && email
		? `Office contact:    ${name}, ${email}  (named to merchants whose rep has no account here)`
		: 'Office contact:    none (merchants whose rep has no account here get no name to write to: set OFFICE_CONTACT_NAME and OFFICE_CONTACT_EMAIL)';
}

const status = await health();
const key = operatorKey();
const REPS_LINE = `Rep console:       ${origin}/rep  (reps are added with \`npm run reps -- add\`, see the README)`;
const lines = [`Portal:            ${origin}`];
if (status?.sandbox) {
	lines.push(
		`Sandbox service:   ${origin}/sandbox  (e.g. ${origin}/sandbox/api/office/1207/acceptancelanguage)`
	);
	if (status.mail === 'mailbox') lines.push(`Dev mailbox:       ${origin}/dev/mailbox`);
	else lines.push(`Mail:              ${await probeMailServer(process.env.SMTP_URL ?? '')}`);
	const demo = await demoLink(key);
	if (demo.url) lines.push(`Demo signing link: ${demo.url}  (office 1207, application ${demo.id})`);
	else lines.push(`Demo signing link: none (${demo.why})`);
	const rep = demoRep();
	if (rep?.disabled)
		lines.push(
			`Rep console:       ${origin}/rep  (demo rep ${rep.email} is disabled: to enable it, stop the portal and run \`npm run reps -- enable --email ${rep.email}\`)`
		);
	else if (rep?.password)
		lines.push(
			`Rep console:       ${origin}/rep  (demo rep ${rep.email}, password ${rep.password})`
		);
	else if (rep)
		lines.push(
			`Rep console:       ${origin}/rep  (demo rep ${rep.email}, with the password last set for it: the rep's own, or a temporary one from \`npm run reps\`, which sign-in asks to replace)`
		);
	else lines.push(REPS_LINE);
	if (key && !process.env.OPERATOR_API_KEY) {
		lines.push(`Operator API key:  in ${dataFile('operator-api-key')}`);
	}
	lines.push(officeContactLine());
} else if (status) {
	lines.push(`Onboarding Service: ${await service(process.env.ONBOARDING_BASE_URL ?? '')}`);
	if (status.mail === 'off')
		lines.push('Mail:              off (no SMTP_URL): links are copied by hand');
	else lines.push(`Mail:              ${await probeMailServer(process.env.SMTP_URL ?? '')}`);
	// On the embedded database the portal generates a key when none is set (operatorKey).
	if (!key) lines.push('Operator API:      closed (no OPERATOR_API_KEY)');
	else if (process.env.OPERATOR_API_KEY) {
		lines.push(`Operator API:      ${origin}/api/v1 (key: OPERATOR_API_KEY)`);
	} else lines.push(`Operator API:      ${origin}/api/v1 (key in ${dataFile('operator-api-key')})`);
	lines.push(REPS_LINE);
	lines.push(officeContactLine());
}
if (!stopping) console.log(`\n${lines.join('\n')}\n`);
stampLog();

/**
 * From here on each line of the log starts with when it was written (UTC, to the millisecond), as
 * an operator reading a file of it needs; a refused start and the summary above stay as they are.
 * Not under systemd, whose journal stamps every line itself (and sets JOURNAL_STREAM).
 */
function stampLog() {
	if (process.env.JOURNAL_STREAM) return;
	for (const level of /** @type {const} */ (['log', 'info', 'warn', 'error'])) {
		const write = console[level].bind(console);
		console[level] = (...args) => write(`${new Date().toISOString()} ${format(...args)}`);
	}
}
