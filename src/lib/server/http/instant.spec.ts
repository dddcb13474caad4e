import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BodySchema } from '../../../routes/api/v1/offices/[officeId]/applications/[applicationId]/signing-links/schema';
import { ISO_INSTANT_MESSAGE as MESSAGE, YEARS_MESSAGE, isoInstant } from './instant';

const instant = isoInstant();

describe('a moment written in ISO 8601', () => {
	it('is read as the Date it names, in any of the forms Date reads', () => {
		for (const [text, iso] of [
			['2026-12-01T17:00:00Z', '2026-12-01T17:00:00.000Z'],
			['2026-12-01 17:00:00Z', '2026-12-01T17:00:00.000Z'],
			['2026-12-01T17:00:00.250+01:00', '2026-12-01T16:00:00.250Z'],
			['2026-12-01T17:00:00+0530', '2026-12-01T11:30:00.000Z'],
			['2028-02-29T12:00:00Z', '2028-02-29T12:00:00.000Z']
		]) {
			expect(v.parse(instant, text).toISOString()).toBe(iso);
		}
	});

	it('is refused in our words where Date could not read it, never made an Invalid Date', () => {
		for (const text of [
			'tomorrow',
			'2026-12-01T17:00:00+05',
			'2026-12-01T17:00:00 +05',
			'2026-12-01T17:00:00 +05:00'
		]) {
			expect(v.safeParse(instant, text).issues?.map((i) => i.message)).toEqual([MESSAGE]);
		}
	});

	it('is refused for a day its month does not have, rather than moved into the next month', () => {
		for (const text of ['2026-11-31T17:00:00Z', '2026-02-29T00:00:00Z', '2026-04-31T00:00:00Z']) {
			expect(v.safeParse(instant, text).issues?.map((i) => i.message)).toEqual([MESSAGE]);
		}
	});

	it('is refused outside the years a database timestamp holds (PostgreSQL has no year 0)', () => {
		for (const text of ['0000-01-01T00:00:00Z', '0001-01-01T00:30:00+01:00']) {
			expect(v.safeParse(instant, text).issues?.map((i) => i.message)).toEqual([YEARS_MESSAGE]);
		}
		expect(v.parse(instant, '0001-01-01T00:00:00Z').toISOString()).toBe('0001-01-01T00:00:00.000Z');
		expect(v.parse(instant, '9999-12-31T23:59:59Z').getUTCFullYear()).toBe(9999);
	});

	it('is how the operator API reads expiresAt', () => {
		expect(v.safeParse(BodySchema, { expiresAt: '2026-12-01T17:00:00+05' }).success).toBe(false);
		expect(v.safeParse(BodySchema, { expiresAt: '2026-11-31T17:00:00Z' }).success).toBe(false);
		expect(v.parse(BodySchema, { expiresAt: '2026-12-01T17:00:00Z' }).expiresAt).toEqual(
			new Date('2026-12-01T17:00:00Z')
		);
	});
});
