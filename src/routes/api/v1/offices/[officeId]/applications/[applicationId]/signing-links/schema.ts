import * as v from 'valibot';
import { plainEmail, shortLocalPart } from '$lib/email';
import { isoInstant } from '$lib/server/http/instant';
import { noSsn } from '$lib/server/signing/ssn';

// Ids are positive: 0 (or 000) names nothing, and the service answers it with an error of its own.
// Nine digits at most: every id the service gives fits, and so does PostgreSQL's integer.
const ID_WORDS = 'must be a positive whole number of at most 9 digits';
const id = v.pipe(
	v.string(ID_WORDS),
	v.regex(/^\d{1,9}$/, ID_WORDS),
	v.transform(Number),
	v.minValue(1, ID_WORDS)
);

export const ParamsSchema = v.object({ officeId: id, applicationId: id });

export const BodySchema = v.object(
	{
		email: v.optional(
			v.pipe(
				v.string('must be a string'),
				v.trim(),
				v.maxLength(254, 'is too long: an email address has at most 254 characters'),
				// A line break would otherwise be named a letter outside ASCII (it is not).
				v.check((s) => !/\s/.test(s), 'must be one email address, without spaces or line breaks'),
				plainEmail(
					'must be written in ASCII: an address with other letters (an internationalised address) cannot be used'
				),
				v.email('must be an email address'),
				shortLocalPart(
					'is too long before the @ (at most 64 characters there): mail cannot be sent to it'
				),
				// The address goes on the record, where nothing may look like an SSN.
				noSsn('must not hold anything that looks like a Social Security Number')
			)
		),
		/**
		 * False: make a link only if the application has none that can still be opened, and leave
		 * that one alone (409). By default a new link replaces the old one.
		 */
		replace: v.optional(v.boolean('must be true or false')),
		/** An earlier end than the configured lifetime, e.g. when an offer runs out; never a later one. */
		expiresAt: v.optional(isoInstant())
	},
	'must be a JSON object'
);
