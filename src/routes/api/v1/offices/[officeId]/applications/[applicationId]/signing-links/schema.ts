import * as v from 'valibot';

// Ids are positive: 0 (or 000) names nothing, and the service answers it with an error of its own.
const id = v.pipe(
	v.string(),
	v.regex(/^\d{1,9}$/, 'must be a positive whole number'),
	v.transform(Number),
	v.minValue(1, 'must be a positive whole number')
);

export const ParamsSchema = v.object({ officeId: id, applicationId: id });

export const BodySchema = v.strictObject(
	{
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
	},
	// Unknown fields: our words, not the library's ("Invalid key: Expected never…").
	'is not an accepted field'
);
