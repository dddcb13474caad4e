/**
 * The Social Security Administration never issues: area 000, 666 or 900–999; group 00; serial
 * 0000. Two numbers were printed in public material and voided (078-05-1120, 219-09-9999).
 */
export function isPossibleSsn(digits: string): boolean {
	if (!/^\d{9}$/.test(digits)) return false;
	const area = Number(digits.slice(0, 3));
	const group = digits.slice(3, 5);
	const serial = digits.slice(5);
	if (area === 0 || area === 666 || area >= 900) return false;
	if (group === '00' || serial === '0000') return false;
	return digits !== '078051120' && digits !== '219099999';
}

/** Separators people type (spaces, dashes, dots) are not part of the number. */
export function ssnDigits(input: string): string {
	return input.replace(/[\s.-]/g, '');
}
