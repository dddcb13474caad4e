import * as v from 'valibot';

/**
 * An address written with letters beyond a–z (олег@пример.рф, josé@example.com): valibot's
 * `email` refuses it, and a message such as "in the form name@example.com" would not say why.
 * Such an address also needs every mail server on the way to take SMTPUTF8, and the service's
 * interface document shows none, so the portal takes plain addresses only, and says so before
 * the form check runs.
 */
export const plainEmail = (message: string) => v.check(isPlainAscii, message);

/**
 * The part before the @ at most 64 characters (RFC 5321): mail servers refuse a longer one, so an
 * address valibot's `email` takes could never be written to.
 */
export const shortLocalPart = (message: string) =>
	v.check((s: string) => s.lastIndexOf('@') <= 64, message);

/** Printable ASCII only: what every email the portal keeps is written in. */
export const isPlainAscii = (s: string) => /^[\x20-\x7e]*$/.test(s);
