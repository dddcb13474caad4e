import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ConsoleQuerySchema } from './rep/schema';
import { HandOverSchema, SendLinkSchema } from './rep/applications/[applicationId]/schema';
import { LockSchema, UnlockSchema } from './rep/lock/schema';
import { SignInSchema } from './rep/login/schema';
import { PasswordChangeSchema } from './rep/password/schema';
import { SignerSchema } from './sign/sign/schema';
import { ConsentSchema } from './sign/terms/schema';

/** Every form's schema that can refuse, with the fields its page sends (LockSchema never does). */
const FORMS = {
	SignInSchema,
	PasswordChangeSchema,
	UnlockSchema,
	SendLinkSchema,
	HandOverSchema,
	SignerSchema,
	ConsentSchema,
	ConsoleQuerySchema
} as const;

/** valibot's own words ("Invalid key: Expected "email" but received undefined"). */
const LIBRARY_WORDS = /^Invalid \w+: Expected /;

const messages = (schema: v.GenericSchema, input: unknown) =>
	(v.safeParse(schema, input).issues ?? []).map((i) => i.message);

describe('a form posted with fields missing (a stale page, a tool) is answered in our words', () => {
	it.each(Object.entries(FORMS))('%s, with no fields at all', (_, schema) => {
		expect(messages(schema, {}).filter((m) => LIBRARY_WORDS.test(m))).toEqual([]);
	});

	it('names the missing field as its page would: email and password at sign-in', () => {
		expect(messages(SignInSchema, {})).toEqual(['Enter your email.', 'Enter your password.']);
		// Typed as the email, an SSN is refused at the field: never counted or kept as a key.
		expect(messages(SignInSchema, { email: '318-46-2075', password: 'long enough' })).toEqual([
			'That looks like a Social Security Number, not your email. Enter your email.'
		]);
		expect(messages(SignInSchema, { email: 'sam ortiz', password: 'long enough' })).toEqual([
			'Enter your email address, such as sam@example.com.'
		]);
		expect(messages(UnlockSchema, {})).toEqual(['Enter your password.']);
		expect(messages(PasswordChangeSchema, {})).toEqual([
			'Enter your current password.',
			'Enter a new password.',
			'Type the new password again.'
		]);
		const pass = 'a long enough pass phrase';
		expect(messages(PasswordChangeSchema, { current: pass, password: pass, again: pass })).toEqual([
			'That is your current password: choose a new one.'
		]);
		expect(
			messages(PasswordChangeSchema, { current: 'x', password: pass, again: `${pass} ` })
		).toEqual(['This is not the same as the new password above. Type both again.']);
		const spaces = ' '.repeat(16);
		expect(
			messages(PasswordChangeSchema, { current: 'x', password: spaces, again: spaces })
		).toEqual(['Use more than spaces: fifteen of them alone are easy to guess.']);
		expect(messages(SendLinkSchema, {})[0]).toBe('Enter the email address to send the link to.');
		// A search from an address whose bytes were not UTF-8 (%FF): not searched for as "�".
		expect(messages(ConsoleQuerySchema, { q: 'caf\uFFFD' })).toEqual([
			'The search has characters that could not be read (they were not sent as UTF-8). Type it again.'
		]);
		// A lock is never refused: a reason the pages never send locks as "Return to rep".
		for (const reason of [undefined, 'second', 'x'.repeat(100_000), ['idle', 'x']]) {
			expect(v.parse(LockSchema, { reason })).toEqual({ reason: 'returned' });
		}
		expect(v.parse(LockSchema, { reason: 'idle' })).toEqual({ reason: 'idle' });
	});

	it.each(Object.entries(FORMS))(
		'%s, with any fields missing, or a file where text goes',
		(_, schema) => {
			const keys = Object.keys((schema as v.ObjectSchema<v.ObjectEntries, undefined>).entries);
			const value = fc.oneof(
				fc.string({ maxLength: 20 }),
				fc.constant(undefined),
				fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }),
				fc.integer()
			);
			fc.assert(
				fc.property(fc.dictionary(fc.constantFrom(...keys, 'other'), value), (form) => {
					for (const m of messages(schema, form)) expect(m).not.toMatch(LIBRARY_WORDS);
				}),
				{ seed: 20_261_124, numRuns: 300 }
			);
		}
	);
});
