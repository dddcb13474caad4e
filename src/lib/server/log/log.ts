/**
 * The one way the server writes about errors. A library's message is never printed: a database
 * driver's names the query and its parameters (names, emails, the encrypted SSN), an HTTP
 * library's can quote a body. A log line carries our own words, the error's class and, where the
 * error has them, its code and status, for each error in its `cause` chain.
 */

import { causes } from './causes';

/** Short machine-made values only: anything longer or stranger could be data. */
const SAFE_VALUE = /^[\w.:/{}-]{1,64}$/;
const FIELDS = ['code', 'status', 'kind', 'operation'] as const;

function className(err: object): string {
	const name = err.constructor?.name;
	return name && SAFE_VALUE.test(name) ? name : 'Object';
}

function one(err: unknown): string {
	if (err === null || typeof err !== 'object') return typeof err;
	const parts = [className(err)];
	for (const field of FIELDS) {
		const value = (err as Record<string, unknown>)[field];
		if (
			(typeof value === 'string' || typeof value === 'number') &&
			SAFE_VALUE.test(String(value))
		) {
			parts.push(`${field}=${value}`);
		}
	}
	return parts.join(' ');
}

/** `DrizzleQueryError <- DatabaseError code=22P05`: what failed, never what it said. */
export function describeError(err: unknown): string {
	return [...causes(err)].map(one).join(' <- ');
}

/** One line on stderr: `[where] what: ErrorClass code=…`. */
export function logError(where: string, what: string, err: unknown): void {
	console.error(`[${where}] ${what}: ${describeError(err)}`);
}
