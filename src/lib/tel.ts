/** A phone number as a `tel:` link wants it: digits (and a leading +); US numbers without one get the country code. */
export function dialable(phone: string): string {
	const digits = phone.replace(/[^\d+]/g, '');
	return digits.startsWith('+') ? digits : digits.length === 10 ? `+1${digits}` : digits;
}
