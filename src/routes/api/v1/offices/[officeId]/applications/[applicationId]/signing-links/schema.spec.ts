import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BodySchema } from './schema';

const emailReasons = (email: string) =>
	v.safeParse(BodySchema, { email }, { abortPipeEarly: true }).issues?.map((i) => i.message) ?? [];

describe('the operator API’s email', () => {
	it('names a line break or a space as what it is, not as a letter outside ASCII', () => {
		for (const email of ['a@b.example\r\nBcc: x@evil.example', 'a@b.example x@c.example']) {
			expect(emailReasons(email), JSON.stringify(email)).toEqual([
				'must be one email address, without spaces or line breaks'
			]);
		}
		expect(emailReasons('jö@b.example')[0]).toMatch(/^must be written in ASCII/);
		expect(emailReasons('  a@b.example  ')).toEqual([]);
	});

	it('refuses a part before the @ longer than mail servers take (64 characters)', () => {
		expect(emailReasons(`${'a'.repeat(64)}@b.example`)).toEqual([]);
		expect(emailReasons(`${'a'.repeat(65)}@b.example`)).toEqual([
			'is too long before the @ (at most 64 characters there): mail cannot be sent to it'
		]);
	});
});
