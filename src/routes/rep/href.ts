/**
 * The console list's address for a search, a state and a page, with only what is set: what its
 * page links and the search's answer (a redirect after the post) both lead to.
 */
export function consoleHref(
	list: string,
	parts: { q?: string; state?: string; page?: number; refused?: 'ssn' }
): string {
	const pairs = [
		['q', parts.q ?? ''],
		['refused', parts.refused ?? ''],
		['state', parts.state ?? ''],
		['page', parts.page && parts.page > 1 ? String(parts.page) : '']
	].filter(([, value]) => value !== '');
	const query = new URLSearchParams(pairs).toString();
	return query ? `${list}?${query}` : list;
}
