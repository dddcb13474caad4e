import * as v from 'valibot';
import { fieldName, reasonsByField } from './inputs';

/** Every issue, grouped by field, in the schema's own words (each schema gives ours). */
export function reasons(
	issues: v.BaseIssue<unknown>[],
	fallback = 'body'
): Record<string, string[]> {
	const out = reasonsByField<string[]>();
	for (const issue of issues) {
		const key = v.getDotPath(issue) ?? fallback;
		(out[key] ??= []).push(issue.message);
	}
	return out;
}

/**
 * The fields a JSON body should not have, the first 20 of them (as parseJsonBody stops at 20: a
 * body of thousands of keys is not answered with thousands of reasons). Valibot's strictObject
 * names only the first, and in its own words ("Invalid key: Expected never…"), so bodies are
 * parsed with v.object and checked here.
 */
export function unknownFields(body: object, known: readonly string[]): Record<string, string[]> {
	const out = reasonsByField<string[]>();
	let named = 0;
	for (const k of Object.keys(body)) {
		if (known.includes(k)) continue;
		if (++named > 20) {
			out.body = ['has more fields that are not accepted: only the first 20 are named'];
			break;
		}
		out[fieldName(k)] = ['is not an accepted field'];
	}
	return out;
}
