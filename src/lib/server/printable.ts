import * as v from 'valibot';

/**
 * What Unicode says is drawn as nothing: the zero-width space, the soft hyphen, the word joiner,
 * the byte-order mark, Hangul fillers, variation selectors and the like. A paste from a web page
 * or a contact card brings them along unseen: in a last name, "Whit\u200bfield" went to the
 * service and the certificate said the signer typed other names than the owner's, beside a name
 * that looked the same. (Controls and text-direction overrides are refused earlier, by
 * `http/inputs.ts`: those make text read otherwise than it is.)
 */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/** Drops what nobody can see, so that what is kept is what the person saw and typed. */
export const withoutInvisible = () => v.transform((s: string) => s.replace(INVISIBLE, ''));

/**
 * Emoji and other symbols are no part of a name, and the documents' fonts cannot print them (the
 * signed copy and certificate showed "Marcus?"). Skin tones and enclosing marks (the keycap of
 * 1️⃣) are parts of emoji too.
 */
const SYMBOL = /\p{Extended_Pictographic}|\p{So}|\p{Me}|[\u{1F3FB}-\u{1F3FF}]/u;

/** Refuses emoji and symbols, with `message`, rather than sending them on. */
export const noSymbol = (message: string) => v.check((s: string) => !SYMBOL.test(s), message);

/**
 * What a person's name is written with: letters in any script and their accents, digits (a "3rd"),
 * spaces, and the full stop, comma, apostrophes and hyphens names carry. Markup ("<b>"), brackets
 * and the like are no part of one, and a name goes on to the onboarding service and onto the
 * documents as typed.
 */
const NOT_IN_A_NAME = /[^\p{L}\p{Mn}\p{Mc}\p{N}\p{Zs}.,'\u2018\u2019\u02bc\-\u2010\u2011\u2013]/u;

/** Refuses anything a name is not written with (see NOT_IN_A_NAME), emoji included. */
export const nameCharacters = (message: string) =>
	v.check((s: string) => !SYMBOL.test(s) && !NOT_IN_A_NAME.test(s), message);
