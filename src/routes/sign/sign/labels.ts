/**
 * The sign form's labels by field: each field's id, and the name its error comes back under. The
 * fields and the error summary above them name a field in the same words.
 */
export const LABELS = {
	reason: 'Reason (optional)',
	firstName: 'First name',
	lastName: 'Last name',
	email: 'Email',
	notificationEmail: 'Notification email',
	ssn: 'Social Security Number',
	signature: 'Type your full name to sign'
} as const;

/** A section's tick box, whose id and error are `section-<key>`. */
export const sectionLabel = (title: string) => `I have read and accept the ${title} section`;
