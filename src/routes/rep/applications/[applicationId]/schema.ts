import * as v from 'valibot';

export const SendLinkSchema = v.object({
	email: v.pipe(
		v.string('Enter the email address to send the link to.'),
		v.trim(),
		v.nonEmpty('Enter the email address to send the link to.'),
		v.maxLength(254, 'That is too long for an email address (at most 254 characters).'),
		v.email('Enter an email address such as dana@example.com.')
	)
});
