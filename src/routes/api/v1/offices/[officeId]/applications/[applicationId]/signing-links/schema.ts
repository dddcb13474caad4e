import * as v from 'valibot';

export const ParamsSchema = v.object({
	officeId: v.pipe(v.string(), v.regex(/^\d{1,9}$/, 'must be a positive whole number'), v.transform(Number)),
	applicationId: v.pipe(
		v.string(),
		v.regex(/^\d{1,9}$/, 'must be a positive whole number'),
		v.transform(Number)
	)
});

export const BodySchema = v.strictObject({
	email: v.optional(
		v.pipe(v.string('must be a string'), v.trim(), v.maxLength(254, 'is too long'), v.email('must be an email address'))
	)
});
