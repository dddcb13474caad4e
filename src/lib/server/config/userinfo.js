// Plain JavaScript, so that scripts/start.js (through mail/probe.js) can use it as well.

/**
 * Whether a URL's user or password, as typed, seems to hold a character a URL reserves, taking
 * everything from `://` to the last `@` as them. A `/ ? #` there ends the URL's host part early
 * ('cut'): what follows it is read as the host, port, path or fragment, so a host, port or path
 * read from the URL may be a piece of the password, and must not be printed. An `@` alone ('at')
 * is read as meant (the last one ends the password), but psql and pg_dump, given the same URL,
 * stop at the first. An `@` in a setting's value (`?application_name=ops@example`) is not in the
 * password: so when the URL's own `@` comes before its first `?`, with a setting (`name=value`)
 * before the last one. A hint, never a refusal: an `@` in a database's name (rare) makes a URL
 * that is right look cut.
 *
 * @param {string} url
 * @returns {'cut' | 'at' | null}
 */
export function unencodedUserinfo(url) {
	const rest = /^[^:]+:\/\/(.*)$/s.exec(url)?.[1] ?? '';
	const at = rest.lastIndexOf('@');
	if (at < 0) return null;
	const userinfo = rest.slice(0, at);
	const query = rest.indexOf('?');
	const inSetting =
		query >= 0 && rest.slice(0, query).includes('@') && /\?[^?#]*=[^?#]*$/.test(userinfo);
	if (inSetting) return null;
	if (/[/?#]/.test(userinfo)) return 'cut';
	return userinfo.includes('@') ? 'at' : null;
}
