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
 * Every field a JSON body should not have. Valibot's strictObject names only the first, and in its
 * own words ("Invalid key: Expected never…"), so bodies are parsed with v.object and checked here.
 */
export function unknownFields(body: object, known: readonly string[]): Record<string, string[]> {
	const out = reasonsByField<string[]>();
	for (const k of Object.keys(body))
		if (!known.includes(k)) out[fieldName(k)] = ['is not an accepted field'];
	return out;
}
