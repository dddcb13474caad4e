/**
 * An error and what it wraps, outermost first, four deep at most: drizzle wraps the driver's
 * error as its `cause`, and the driver may wrap a socket's. A value that is not an object wraps
 * nothing, and ends the chain.
 */
export function* causes(err: unknown): Generator<unknown> {
	let current = err;
	for (let depth = 0; depth < 4 && current !== undefined; depth++) {
		yield current;
		current =
			current !== null && typeof current === 'object'
				? (current as { cause?: unknown }).cause
				: undefined;
	}
}
