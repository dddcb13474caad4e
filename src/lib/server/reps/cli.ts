import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { ConfigError, parseConfig } from '$lib/server/config/config';
import { secureDataDir } from '$lib/server/app/datadir';
import { openDatabase, type Database } from '$lib/server/db';
import { DataDirBusyError } from '$lib/server/db/lock';
import { databaseProblem, serverAddress } from '$lib/server/db/problems';
import { unencodedUserinfo } from '$lib/server/config/userinfo.js';
import { parse as parsePg } from 'pg-connection-string';
import {
	addRep,
	disableRep,
	enableRep,
	findRepByEmail,
	listReps,
	RepExistsError,
	setRepPassword,
	updateRep,
	type Rep
} from './accounts';
import {
	EmailSchema,
	issueLines,
	NameSchema,
	NewRepSchema,
	OfficeIdSchema,
	PasswordSchema,
	PhoneSchema
} from './schemas';
import { PasswordMismatch, PromptAborted, readPassword, type PasswordInput } from './prompt';
import { forgetDemoPassword, noteDemoDisabled } from './demo';
import { officeUnknown, onboardingClientFor } from '$lib/server/onboarding';

/**
 * `npm run reps -- <command>`: the operator's tool for rep accounts. It opens the same database
 * as the portal (DATABASE_URL, else PGlite in DATA_DIR) and reads passwords from standard input
 * only, never from arguments (which `ps` and shell history show).
 */

export const USAGE = `Usage: npm run reps -- <command> [options]

Commands:
  add --office <id> --rep-no <n> --email <email> --name "<name>" [--phone <phone>]
      [--own-password]
        Adds a rep. The password is read from standard input (typed twice, unseen, at a
        terminal; the first line when piped: echo "…" | npm run reps -- add …). It is
        temporary: at their first sign-in the rep chooses their own before the console
        opens. --own-password: the rep typed it here themselves, and keeps it. With
        ONBOARDING_BASE_URL set, an office the service has not is refused.
  list [--office <id>]
        Lists reps.
  update --email <email> [--new-email <email>] [--name "<name>"] [--phone <phone>]
        Corrects a rep's email, name or phone (--phone "" takes it away). Their office and
        number stay.
  disable --email <email>
        Disables a rep and ends their sessions.
  enable --email <email>
        Enables a disabled rep again.
  reset-password --email <email> [--own-password]
        Sets a new password (read as for add, and temporary as there) and ends the rep's
        sessions.

Settings come from the environment, as for the portal: DATABASE_URL, else the embedded database
in DATA_DIR (default ./data). The embedded database serves one process at a time: stop the
portal first.`;

export interface CliIo {
	args: string[];
	env: Record<string, string | undefined>;
	stdin: PasswordInput;
	out: { write(s: string): unknown };
	err: { write(s: string): unknown };
}

class UsageError extends Error {
	constructor(
		readonly lines: string[],
		/** Whether to print the whole usage text, or only point at it. */
		readonly full = false
	) {
		super(lines.join('\n'));
		this.name = 'UsageError';
	}
}

class Failure extends Error {
	name = 'Failure';
}

const COMMANDS = {
	add: ['office', 'rep-no', 'email', 'name', 'phone', 'own-password'],
	list: ['office'],
	update: ['email', 'new-email', 'name', 'phone'],
	disable: ['email'],
	enable: ['email'],
	'reset-password': ['email', 'own-password'],
	help: []
} as const;
type Command = keyof typeof COMMANDS;

/** Options that are there or not, and take no value. */
const SWITCHES: readonly string[] = ['own-password'];

const FLAG_OF: Record<string, string> = {
	officeId: '--office',
	repNo: '--rep-no',
	email: '--email',
	name: '--name',
	phone: '--phone',
	newEmail: '--new-email',
	password: 'password'
};

/** The command and its options, or a UsageError in our own words. */
export function parseCommand(args: string[]): {
	command: Command;
	options: Record<string, string>;
} {
	const { tokens } = parseArgs({
		args,
		strict: false,
		allowPositionals: true,
		tokens: true,
		options: Object.fromEntries(
			[...new Set(Object.values(COMMANDS).flat())].map((o) => [
				o,
				{ type: SWITCHES.includes(o) ? ('boolean' as const) : ('string' as const) }
			])
		)
	});
	const problems: string[] = [];
	const positionals = tokens.filter((t) => t.kind === 'positional').map((t) => t.value);
	// `--help` or `-h` anywhere, as most commands take it, is the help command.
	if (tokens.some((t) => t.kind === 'option' && (t.name === 'help' || t.name === 'h'))) {
		return { command: 'help', options: {} };
	}
	const command = positionals[0];
	if (!command) throw new UsageError(['no command given'], true);
	if (!(command in COMMANDS)) throw new UsageError([`unknown command "${command}"`], true);
	const allowed: readonly string[] = COMMANDS[command as Command];
	if (positionals.length > 1)
		problems.push(`unexpected argument "${positionals[1]}" (quote a name with spaces)`);
	const options: Record<string, string> = {};
	for (const t of tokens) {
		if (t.kind !== 'option') continue;
		if (!allowed.includes(t.name)) {
			problems.push(`${command} takes no option ${t.rawName}`);
		} else if (SWITCHES.includes(t.name)) {
			if (t.value !== undefined) problems.push(`${t.rawName} takes no value`);
			else if (t.name in options) problems.push(`${t.rawName} is given twice`);
			else options[t.name] = 'yes';
		} else if (t.value === undefined) {
			problems.push(`${t.rawName} needs a value`);
		} else if (t.name in options) {
			problems.push(`${t.rawName} is given twice`);
		} else {
			options[t.name] = t.value;
		}
	}
	if (problems.length) throw new UsageError(problems);
	return { command: command as Command, options };
}

function check<T extends v.GenericSchema>(schema: T, input: unknown): v.InferOutput<T> {
	const r = v.safeParse(schema, input);
	if (!r.success) throw new UsageError(issueLines(r.issues, (k) => FLAG_OF[k] ?? k));
	return r.output;
}

const EmailArgs = v.object({ email: EmailSchema });

/** `update`'s changes, each optional (an empty --phone is handled before: no phone any more). */
const ChangesSchema = v.object({
	newEmail: v.optional(EmailSchema),
	name: v.optional(NameSchema),
	phone: v.optional(PhoneSchema)
});

/**
 * Opens the portal's database, and says on standard error which one: an operator whose shell
 * lacks the portal's settings (DATABASE_URL not loaded) would otherwise add a rep to an embedded
 * database of its own, with nothing to show it was not the portal's.
 */
async function open(io: CliIo, command: Command): Promise<Database> {
	const config = parseConfig(io.env);
	if (config.DATABASE_URL) {
		io.err.write(`Database: PostgreSQL, ${whereOnServer(config.DATABASE_URL)}.\n`);
		return openDatabase({ url: config.DATABASE_URL, max: 2 });
	}
	const folder = resolve(config.DATA_DIR);
	const first = !existsSync(resolve(folder, 'pglite'));
	// Only `add` may be the first to use a data folder (reps added before the portal's first
	// start): anything else there would be a DATA_DIR mistyped, and a new empty database made
	// in it would answer "No reps" about the wrong place.
	if (command !== 'add' && first) {
		throw new Failure(
			`there is no portal database in ${folder}: is DATA_DIR right? (The portal makes it on its first start, as \`add\` does.)`
		);
	}
	io.err.write(
		first
			? `Database: none in ${folder} yet, so a new embedded one is made there (DATABASE_URL is not set). If the portal runs on PostgreSQL or on another DATA_DIR, this is not its database: load the portal's settings and add the rep again.\n`
			: `Database: the embedded one in ${folder} (DATABASE_URL is not set).\n`
	);
	// Private, as the portal makes it at its start (app/context.ts): the folder holds the reps'
	// password hashes, and PGlite unpacks a new database with modes of its own (0666), so the walk
	// comes once it has opened.
	secureDataDir(folder, { walk: false });
	const database = await openDatabase({ dataDir: folder, holder: '`npm run reps`' });
	secureDataDir(folder);
	return database;
}

/**
 * The server and database a URL names, without its user or password, read as pg reads them (a
 * socket folder in ?host= too). Nothing of the URL when its password seems to hold a / ? or #
 * not percent-encoded: what would be read as the host, port or database is then a piece of it.
 */
function whereOnServer(url: string): string {
	const unreadable = 'as DATABASE_URL names it';
	if (unencodedUserinfo(url) === 'cut') {
		return `${unreadable}, whose password seems to hold a / ? or # that must be percent-encoded (/ as %2F, ? as %3F, # as %23)`;
	}
	try {
		const where = parsePg(url);
		return `database ${where.database || 'the default database'} at ${serverAddress(where)} (DATABASE_URL)`;
	} catch {
		return unreadable;
	}
}

/**
 * Asks the Onboarding Service, before a rep is added, whether it has their office: an office it
 * has not (a 404 for its list) is refused, since a rep's office is not changed once added; a
 * service that cannot be asked is only a warning (returned), so that it being away does not stop
 * an operator. The sandbox serves any office, so it is not asked.
 */
async function officeDoubt(env: CliIo['env'], officeId: number): Promise<string | null> {
	const config = parseConfig(env);
	if (config.sandbox) return null;
	const service = onboardingClientFor(config);
	try {
		await service.listApplications(officeId);
		return null;
	} catch (err) {
		if (officeUnknown(err)) {
			throw new Failure(
				`the Onboarding Service at ${config.onboardingBaseUrl} has no office ${officeId}: is --office right? No rep was added.`
			);
		}
		return `the Onboarding Service at ${config.onboardingBaseUrl} could not be asked whether it has office ${officeId}: their console will say if it has none.`;
	}
}

/** What the rep meets at their next sign-in, as the operator is told it. */
const chooses = ({ temporary }: { temporary: boolean }) =>
	temporary
		? ' The password is temporary: at their next sign-in they choose their own before the console opens.'
		: '';

function describe(rep: Rep): string {
	return `${rep.name} <${rep.email}>, rep ${rep.repNo} of office ${rep.officeId}`;
}

function table(rows: Rep[]): string {
	const head = ['OFFICE', 'REP NO', 'NAME', 'EMAIL', 'PHONE', 'STATUS'];
	const cells = rows.map((r) => [
		String(r.officeId),
		String(r.repNo),
		r.name,
		r.email,
		r.phone ?? '',
		r.disabledAt ? 'disabled' : r.passwordTemporary ? 'active, temporary password' : 'active'
	]);
	const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
	return [head, ...cells]
		.map((row) =>
			row
				.map((c, i) => c.padEnd(widths[i]!))
				.join('  ')
				.trimEnd()
		)
		.join('\n');
}

async function newPassword(io: CliIo, who: string): Promise<string> {
	const password = await readPassword(io.stdin, io.err, `New password for ${who}`);
	// Nothing typed, or standard input closed before a line: say that, not that it is short.
	if (password === '') {
		throw new UsageError(['password: none was given (type it, or pipe it in on one line)']);
	}
	return check(v.object({ password: PasswordSchema }), { password }).password;
}

async function run(io: CliIo, command: Command, options: Record<string, string>) {
	if (command === 'help') {
		io.out.write(USAGE + '\n');
		return;
	}
	// Arguments are checked before the database is opened or a password asked for.
	const input =
		command === 'add'
			? check(NewRepSchema, {
					officeId: options.office,
					repNo: options['rep-no'],
					email: options.email,
					name: options.name,
					phone: options.phone
				})
			: undefined;
	const email =
		command === 'list' || command === 'add'
			? undefined
			: check(EmailArgs, { email: options.email }).email;
	// An empty --phone takes the phone away: null, which the schema's phone is never.
	const noPhone = options.phone?.trim() === '';
	const changes =
		command === 'update'
			? {
					...check(ChangesSchema, {
						newEmail: options['new-email'],
						name: options.name,
						phone: noPhone ? undefined : options.phone
					}),
					...(noPhone && { phone: null })
				}
			: undefined;
	if (changes && Object.values(changes).every((value) => value === undefined)) {
		throw new UsageError(['update needs --new-email, --name or --phone: what to change']);
	}
	const office =
		command === 'list' && options.office !== undefined
			? check(v.object({ officeId: OfficeIdSchema }), { officeId: options.office }).officeId
			: undefined;

	// The operator knows a password they set: the rep replaces it, unless they typed it here.
	const setting = { temporary: options['own-password'] === undefined };

	const database = await open(io, command);
	try {
		const db = database.db;
		if (command === 'list') {
			const rows = await listReps(db, office);
			io.out.write(rows.length ? table(rows) + '\n' : 'No reps.\n');
			return;
		}
		if (input) {
			if (await findRepByEmail(db, input.email)) throw new RepExistsError('email');
			const doubt = await officeDoubt(io.env, input.officeId);
			if (doubt) io.err.write(`warning: ${doubt}\n`);
			const password = await newPassword(io, input.email);
			const rep = await addRep(db, input, password, new Date(), setting);
			io.out.write(`Added ${describe(rep)}.${chooses(setting)}\n`);
			return;
		}
		const rep = await findRepByEmail(db, email!);
		if (!rep) throw new Failure(`no rep has the email ${email}`);
		if (changes) {
			const updated = await updateRep(db, rep.email, {
				...(changes.newEmail !== undefined && { email: changes.newEmail }),
				...(changes.name !== undefined && { name: changes.name }),
				...(changes.phone !== undefined && { phone: changes.phone })
			});
			// The start's banner names the demo rep by its first email: no password beside another.
			if (changes.newEmail !== undefined) forgetDemoPassword(parseConfig(io.env), rep.email);
			io.out.write(`Updated ${describe(updated ?? rep)}.\n`);
			return;
		}
		if (command === 'disable') {
			const done = await disableRep(db, rep.email);
			noteDemoDisabled(parseConfig(io.env), rep.email, true);
			io.out.write(
				done
					? `Disabled ${describe(rep)}; their sessions ended.\n`
					: `${describe(rep)} was already disabled.\n`
			);
		} else if (command === 'enable') {
			if (!rep.disabledAt) {
				io.out.write(`${describe(rep)} was already enabled.\n`);
				return;
			}
			await enableRep(db, rep.email);
			noteDemoDisabled(parseConfig(io.env), rep.email, false);
			io.out.write(`Enabled ${describe(rep)}.\n`);
		} else {
			const password = await newPassword(io, rep.email);
			await setRepPassword(db, rep.email, password, new Date(), setting);
			forgetDemoPassword(parseConfig(io.env), rep.email);
			io.out.write(
				`New password set for ${describe(rep)}; their sessions ended.${chooses(setting)}\n`
			);
		}
	} finally {
		await database.close();
	}
}

/** Runs one command; the exit code: 0 done, 1 refused or failed, 2 bad usage. */
export async function runCli(io: CliIo): Promise<number> {
	try {
		const { command, options } = parseCommand(io.args);
		await run(io, command, options);
		return 0;
	} catch (err) {
		if (err instanceof UsageError) {
			const hint = err.full ? `\n${USAGE}` : 'See `npm run reps -- help`.';
			io.err.write(err.lines.map((l) => `error: ${l}\n`).join('') + hint + '\n');
			return 2;
		}
		if (err instanceof ConfigError) {
			io.err.write(err.message + '\n');
			return 2;
		}
		if (
			err instanceof Failure ||
			err instanceof RepExistsError ||
			err instanceof DataDirBusyError ||
			err instanceof PasswordMismatch ||
			err instanceof PromptAborted
		) {
			io.err.write(`error: ${err.message}\n`);
			return 1;
		}
		const words = databaseProblem(err, io.env.DATABASE_URL);
		if (words) {
			io.err.write(`error: the database could not be opened: ${words}\n`);
			return 1;
		}
		// Our words and the error's class only: a driver's message can carry query parameters.
		io.err.write(
			`error: the command failed (${err instanceof Error ? err.name : 'unknown error'}${
				(err as { code?: unknown })?.code ? ` ${String((err as { code?: unknown }).code)}` : ''
			})\n`
		);
		return 1;
	}
}
