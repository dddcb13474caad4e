import * as v from 'valibot';
import { addError, type ModelState } from './http';

/**
 * Validates a body with one of the client's valibot schemas and turns every issue into a
 * ModelState entry keyed by the field's path (`EquipmentSetupForm.AssignedTerminals[0].Price`),
 * so that a bad body names each bad field, as ASP.NET model binding does.
 */
export function check<S extends v.GenericSchema>(
	schema: S,
	body: unknown
): { output: v.InferOutput<S> | null; modelState: ModelState } {
	// Every request body of the service is an object; valibot's object schemas would take an array.
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		return { output: null, modelState: { body: ['The body must be a JSON object.'] } };
	}
	const result = v.safeParse(schema, body);
	const modelState: ModelState = {};
	if (result.success) return { output: result.output, modelState };
	for (const issue of result.issues) {
		addError(modelState, keyOf(issue), reasonOf(issue));
	}
	return { output: null, modelState };
}

function keyOf(issue: v.BaseIssue<unknown>): string {
	let key = '';
	for (const item of issue.path ?? []) {
		if (item.type === 'array') key += `[${String(item.key)}]`;
		else key += key === '' ? String(item.key) : `.${String(item.key)}`;
	}
	return key === '' ? 'body' : key;
}

const JSON_TYPES: Record<string, string> = {
	number: 'a number',
	string: 'a string',
	boolean: 'true or false',
	Array: 'an array',
	Object: 'an object'
};

function reasonOf(issue: v.BaseIssue<unknown>): string {
	const last = issue.path?.at(-1);
	const name = last && last.type !== 'array' ? String(last.key) : undefined;
	if (name && issue.expected === 'never') return `${name} is not a field of this request.`;
	if (name && issue.input === undefined) return `The ${name} field is required.`;
	// A value of the wrong JSON type, said as model binding says it, not in valibot's words.
	const type = issue.kind === 'schema' && issue.expected ? JSON_TYPES[issue.expected] : undefined;
	if (name && type) return `The value for ${name} is not valid: it must be ${type}.`;
	// Valibot's default messages end in "but received <the value>": a reason must never echo
	// what was sent, which may be an SSN.
	return issue.message.replace(/\s*but received [\s\S]*$/, '.');
}
