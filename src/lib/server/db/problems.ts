/**
 * Why a PostgreSQL server could not be opened, in our words, for the errors an operator meets on
 * a first start: the server not running, a wrong host, password or database. Built from the
 * error's code and the URL's host, port, user and database, never from the driver's message
 * (which is safe here, but is not elsewhere) and never with the password.
 */
export function databaseProblem(err: unknown, url: string | undefined): string | null {
	if (!url) return null;
	const code = (err as { code?: unknown } | null)?.code;
	if (typeof code !== 'string') return null;
	let where: URL;
	try {
		where = new URL(url);
	} catch {
		return null;
	}
	const hostPort = `${where.hostname || 'localhost'}:${where.port || 5432}`;
	const server = `the PostgreSQL server at ${hostPort}`;
	const user = decodeURIComponent(where.username) || 'the default user';
	const database = decodeURIComponent(where.pathname.slice(1)) || 'the default database';
	const words: Record<string, string> = {
		ECONNREFUSED: `nothing answers at ${hostPort}: is PostgreSQL running there, and are DATABASE_URL's host and port right?`,
		ENOTFOUND: `the host ${where.hostname} in DATABASE_URL is not known to this machine's DNS`,
		EAI_AGAIN: `the host ${where.hostname} in DATABASE_URL could not be looked up just now`,
		ETIMEDOUT: `${server} did not answer in time: a firewall, or the wrong host?`,
		EHOSTUNREACH: `${server} cannot be reached from this machine`,
		'28P01': `${server} refused the password of ${user}: check DATABASE_URL's password`,
		'28000': `${server} does not let ${user} connect from here (pg_hba.conf), or the user does not exist`,
		'3D000': `${server} has no database named ${database}: create it, or correct DATABASE_URL`,
		'42501': `${user} may not do what the portal needs in ${database} (it creates its own tables)`,
		'53300': `${server} has no connection to spare (too many clients)`,
		'57P03': `${server} is starting up or shutting down: try again in a moment`
	};
	const text = words[code];
	return text ? `${text} (${code}).` : null;
}
