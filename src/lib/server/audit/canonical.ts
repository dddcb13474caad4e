/**
 * JSON with object keys sorted at every level, so the same event always hashes the same way,
 * whatever order its keys were written in or PostgreSQL's jsonb gives them back in. The value
 * must already be plain JSON (see `toJson`).
 */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const entries = Object.keys(value)
			.sort()
			.map(
				(key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`
			);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/**
 * What a value becomes once stored as jsonb and read back (Dates become ISO strings, undefined
 * members disappear, NaN becomes null): hashing this form lets the stored row verify later.
 */
export function toJson(value: Record<string, unknown>): Record<string, unknown> {
	return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}
