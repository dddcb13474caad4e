/** Letters that lose no mark in decomposition but are typed without one (Łukasz as Lukasz). */
const PLAIN: Record<string, string> = {
	ł: 'l',
	ø: 'o',
	đ: 'd',
	ħ: 'h',
	ı: 'i',
	ß: 'ss',
	æ: 'ae',
	œ: 'oe',
	þ: 'th'
};

/**
 * Text as people compare it: no case, no accents, one space between words. The console's search
 * finds "Beltran" in Beltrán with it; a decision tells a signer's typed names from the owner's.
 */
export function searchFold(text: string): string {
	return text
		.toLowerCase()
		.normalize('NFKD')
		.replace(/\p{M}/gu, '')
		.replace(/[łøđħıßæœþ]/g, (c) => PLAIN[c]!)
		.replace(/\s+/g, ' ')
		.trim();
}
