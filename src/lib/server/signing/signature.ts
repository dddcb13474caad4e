/**
 * Whether a typed signature is the signer's name. What counts is the letters and their order:
 * case, spacing, accents (José = Jose, Łukasz = Lukasz, Strauß = Strauss) and punctuation
 * (O’Brien = O'Brien = OBrien, Testwell-Ray = Testwell Ray, "Q." = "Q") do not, since keyboards
 * and habits differ and none of them changes who is signing. A different or missing letter, an
 * extra word or the names swapped do. ICU's collator at base strength, ignoring punctuation,
 * makes exactly that comparison, for every script.
 */
const collator = new Intl.Collator('en', {
	usage: 'search',
	sensitivity: 'base',
	ignorePunctuation: true
});

export function signatureMatches(typed: string, firstName: string, lastName: string): boolean {
	const expected = `${firstName} ${lastName}`;
	if (!/[\p{L}\p{N}]/u.test(typed) || !/[\p{L}\p{N}]/u.test(expected)) return false;
	return collator.compare(typed, expected) === 0;
}
