import * as v from 'valibot';

export const ParamsSchema = v.object({
	officeId: v.pipe(
		v.string(),
		v.regex(/^\d{1,9}$/, 'must be a positive whole number'),
		v.transform(Number)
	),
	applicationId: v.pipe(
		v.string(),
		v.regex(/^\d{1,9}$/, 'must be a positive whole number'),
		v.transform(Number)
	)
});

export const BodySchema = v.strictObject({
	email: v.optional(
		v.pipe(
			v.string('must be a string'),
			v.trim(),
			v.maxLength(254, 'is too long'),
			v.email('must be an email address')
		)
	),
	/** An earlier end than the configured lifetime, e.g. when an offer runs out; never a later one. */
	expiresAt: v.optional(
		v.pipe(
			v.string('must be an ISO 8601 date-time'),
			v.isoTimestamp('must be an ISO 8601 date-time such as 2026-12-01T17:00:00Z'),
			v.transform((s) => new Date(s))
		)
	)
});
