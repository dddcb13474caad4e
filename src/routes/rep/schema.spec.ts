import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ConsoleQuerySchema } from './schema';

describe('the console’s search', () => {
	it('takes text, trimmed, and refuses a control character, NUL included', () => {
		expect(v.parse(ConsoleQuerySchema, { q: '  Blue Heron ' }).q).toBe('Blue Heron');
		for (const q of ['\u0000', 'Blue\u0000', 'a\u0007b', 'rtl\u202e']) {
			const r = v.safeParse(ConsoleQuerySchema, { q });
			expect(r.success, JSON.stringify(q)).toBe(false);
			expect(r.issues?.[0]?.message).toContain('invisible control character');
		}
	});
});
