import * as v from 'valibot';

/**
 * An address written with letters beyond a–z (олег@пример.рф, josé@example.com): valibot's
 * `email` refuses it, and a message such as "in the form name@example.com" would not say why.
 * Such an address also needs every mail server on the way to take SMTPUTF8, and the service's
 * interface document shows none, so the portal takes plain addresses only, and says so before
 * the form check runs.
 */
export const plainEmail = (message: string) => v.check(isPlainAscii, message);

/** Printable ASCII only: what every email the portal keeps is written in. */
export const isPlainAscii = (s: string) => /^[\x20-\x7e]*$/.test(s);
