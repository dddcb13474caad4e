import * as v from 'valibot';
import { plainEmail, shortLocalPart } from '$lib/email';
import { noSymbol, withoutInvisible } from '$lib/server/printable';
import { noSsn } from '$lib/server/signing/ssn';

/**
 * The usable link the page showed when the rep pressed Send, Make a link or Revoke (its id, or
 * "none"): a link made since is not replaced or ended unseen (LinkGuard, revokeLink). A post
 * without it (a page from before the field) acts on whatever link there is, as the button always
 * did.
 */
const shownId = v.pipe(
	v.string('This page is out of date: reload it and try again.'),
	v.check(
		(s) => s === 'none' || v.is(v.pipe(v.string(), v.uuid()), s),
		'This page is out of date: reload it and try again.'
	),
	v.transform((s) => (s === 'none' ? null : s))
);
const shown = v.optional(shownId);

export const CopyLinkSchema = v.object({ shown });

/** Revoke ends only the link the page showed, if it is still the usable one. */
export const RevokeLinkSchema = v.object({ shown });

export const SendLinkSchema = v.object({
	shown,
	email: v.pipe(
		v.optional(v.string('Enter the email address to send the link to.'), ''),
		v.trim(),
		v.nonEmpty('Enter the email address to send the link to.'),
		v.maxLength(254, 'That is too long for an email address (at most 254 characters).'),
		plainEmail(
			'Write the address with the letters a–z, digits and . _ - + @ only: an address with other letters can’t be used here.'
		),
		v.email('Enter an email address such as dana@example.com.'),
		shortLocalPart(
			'That address is too long before the @ (at most 64 characters there): mail can’t be sent to it.'
		),
		noSsn(
			'That address looks like it holds a Social Security Number, which the portal can’t keep on record: use another address.'
		)
	)
});

/** "Hand to merchant": the rep's attestation; the ID's type and last four are optional notes. */
export const HandOverSchema = v.object({
	// The hand-over whose tablet the page showed in the merchant's hands (its id, or "none"): a
	// hand-over here takes the signing from it, and from no other.
	shownTablet: v.optional(shownId),
	// What a page from before that field posts (and a page of this one posts beside it, for a
	// server of the one before): whether it showed a tablet in hands. Without either, none.
	tabletShown: v.optional(
		v.picklist(['yes', 'no'], 'This page is out of date: reload it and try again.'),
		'no'
	),
	photoIdChecked: v.pipe(
		v.optional(
			v.string('Tick “I have checked the signer’s photo ID” before handing the tablet over.'),
			''
		),
		v.check(
			(s) => s === 'on',
			'Tick “I have checked the signer’s photo ID” before handing the tablet over.'
		)
	),
	idType: v.pipe(
		v.optional(v.string('Write the ID type as text, e.g. Driver’s license.'), ''),
		withoutInvisible(),
		v.trim(),
		v.maxLength(40, 'Keep the ID type short (at most 40 characters), e.g. Driver’s license.'),
		noSymbol(
			'Name the kind of ID in words, e.g. Driver’s license: emoji and symbols can’t go on the certificate.'
		),
		noSsn(
			'Leave numbers that look like an SSN out of the ID type: only the ID number’s last four are noted, in the field beside it.'
		),
		v.transform((s) => (s === '' ? null : s))
	),
	// The field takes more than four, so that a whole number typed or pasted is refused rather
	// than cut to its first four: those would be noted as the last four, a false attestation.
	idLast4: v.pipe(
		v.optional(v.string('Type the last four characters of the ID number as text.'), ''),
		v.transform((s) => s.replace(/\s/g, '')),
		v.maxLength(
			4,
			'Type only the last four characters of the ID number: the portal keeps no more of it.'
		),
		v.transform((s) => (s === '' ? null : s)),
		v.check(
			(s) => s === null || /^[A-Za-z0-9]{1,4}$/.test(s),
			'The last four characters of the ID number are letters and digits only.'
		),
		// As IDs print them (K7Q2), whichever case was typed.
		v.transform((s) => s?.toUpperCase() ?? null)
	)
});
