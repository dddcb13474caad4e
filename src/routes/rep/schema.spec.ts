import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { consoleHref } from './href';
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

	it('writes the list’s address with only what is set', () => {
		expect(consoleHref('/rep', {})).toBe('/rep');
		expect(consoleHref('/rep', { q: 'Two Riv', state: '' })).toBe('/rep?q=Two+Riv');
		expect(consoleHref('/rep', { q: 'a&b', state: 'link_sent', page: 3 })).toBe(
			'/rep?q=a%26b&state=link_sent&page=3'
		);
		expect(consoleHref('/rep', { refused: 'ssn', state: 'declined', page: 1 })).toBe(
			'/rep?refused=ssn&state=declined'
		);
	});
});
