import { randomInt } from 'node:crypto';
import type { SandboxQuestion } from '../../db/schema';

/**
 * Identity questions built from the application's own data, so a person giving a demo can
 * answer them by reading the demo data (the rule is in the sandbox README):
 *
 * - each set has 5 questions drawn from 6 kinds, each with 5 choices, the last "NONE OF THE ABOVE";
 * - the right answer is the owner's own value, in capitals, as listed below; in about one
 *   question in five it is left out and "NONE OF THE ABOVE" is right.
 */

export const NONE_OF_THE_ABOVE = 'NONE OF THE ABOVE';
export const QUESTIONS_PER_SET = 5;
export const CHOICES_PER_QUESTION = 5;
/** Right answers needed to pass: 4 of 5 (80 %). */
export const PASS_MARK = 4;

export type Random = (maxExclusive: number) => number;
const cryptoRandom: Random = (max) => randomInt(max);

type Obj = Record<string, unknown>;

const SUFFIXES: Record<string, string> = {
	STREET: 'ST',
	AVENUE: 'AVE',
	ROAD: 'RD',
	DRIVE: 'DR',
	LANE: 'LN',
	COURT: 'CT',
	BOULEVARD: 'BLVD',
	PLACE: 'PL',
	TERRACE: 'TER',
	CIRCLE: 'CIR',
	PARKWAY: 'PKWY',
	HIGHWAY: 'HWY'
};

/** "1482 Larkspur Lane, Apt 2" → "LARKSPUR LN": no house number, no unit, suffix abbreviated. */
export function streetOf(address: string): string {
	const words = address
		.split(/[,#]/)[0]!
		.toUpperCase()
		.replace(/[^A-Z0-9 ]/g, ' ')
		.split(/\s+/)
		.filter((w) => w !== '');
	while (words.length > 1 && /^\d+[A-Z]?$/.test(words[0]!)) words.shift();
	const last = words.length - 1;
	if (last > 0 && SUFFIXES[words[last]!]) words[last] = SUFFIXES[words[last]!]!;
	return words.join(' ');
}

const upper = (v: unknown) => (typeof v === 'string' ? v.trim().toUpperCase() : '');

const STREETS = [
	'ELM ST',
	'CEDAR LN',
	'BIRCH RD',
	'OAK DR',
	'MAPLE AVE',
	'WALNUT CT',
	'HIGHLAND BLVD',
	'RIVERSIDE DR',
	'MILL POND RD',
	'SPRUCE TER',
	'JUNIPER WAY',
	'ORCHARD PL',
	'HAWTHORNE ST',
	'LAUREL CIR',
	'MEADOW LN',
	'SYCAMORE AVE'
];
const CITIES = [
	'SPRINGFIELD',
	'FAIRVIEW',
	'GREENVILLE',
	'RIVERTON',
	'CLINTON',
	'GEORGETOWN',
	'MARION',
	'SALEM',
	'FRANKLIN',
	'ASHLAND',
	'OAKDALE',
	'MILFORD',
	'BRISTOL',
	'DOVER',
	'LEXINGTON'
];
const BANKS = [
	'FIRST PRAIRIE BANK',
	'LAKESHORE CREDIT UNION',
	'SUMMIT NATIONAL BANK',
	'HARBOR TRUST BANK',
	'PIONEER SAVINGS BANK',
	'CORNERSTONE FEDERAL CREDIT UNION',
	'RED OAK COMMUNITY BANK',
	'TRI-COUNTY STATE BANK',
	'VALLEY FARMERS BANK'
];
const BUSINESSES = [
	'SUNRISE DRY CLEANERS',
	'MAPLE LEAF DENTAL',
	'RIVERBEND PET SUPPLY',
	'GOLDEN GATE PIZZA',
	'CORNER BOOK EXCHANGE',
	'EVERGREEN LANDSCAPING',
	'BRIGHTSIDE TUTORING',
	'HILLTOP AUTO GLASS'
];

interface Kind {
	prompt: string;
	answer(doc: Obj): string;
	distractors(answer: string, random: Random): string[];
}

const fromPool = (pool: string[]) => (answer: string) => pool.filter((p) => p !== answer);

const nearby = (answer: string, spread: number[], format: (n: number) => string) => {
	const n = Number(answer);
	return Number.isFinite(n) && answer !== '' ? spread.map((d) => format(n + d)) : [];
};

export const KINDS: Kind[] = [
	{
		prompt: 'Which of the following streets have you lived on?',
		answer: (d) => streetOf(String((d.OwnerOfficer as Obj).Ownr1_Address ?? '')),
		distractors: fromPool(STREETS)
	},
	{
		prompt: 'In which of the following cities have you lived?',
		answer: (d) => upper((d.OwnerOfficer as Obj).Ownr1_City),
		distractors: fromPool(CITIES)
	},
	{
		prompt: 'In which year were you born?',
		answer: (d) => String((d.OwnerOfficer as Obj).Ownr1_DOB ?? '').split('/')[2] ?? '',
		distractors: (a) => nearby(a, [-7, -5, -4, -3, -2, -1, 1, 2, 3, 4, 6], String)
	},
	{
		prompt: 'Which of the following ZIP codes have you been associated with?',
		answer: (d) => upper((d.OwnerOfficer as Obj).Ownr1_ZIP).slice(0, 5),
		distractors: (a, random) => {
			if (!/^\d{5}$/.test(a)) return ['60614', '30305', '94110', '10024', '73301'];
			const base = Number(a.slice(0, 3)) * 100;
			const zips = new Set<string>();
			while (zips.size < 8) {
				const z = String(base + random(100)).padStart(5, '0');
				if (z !== a) zips.add(z);
			}
			return [...zips];
		}
	},
	{
		prompt: 'At which of the following banks do you have an account?',
		answer: (d) => upper((d.Profile as Obj).Bank_Name),
		distractors: fromPool(BANKS)
	},
	{
		prompt: 'With which of the following businesses have you been associated?',
		answer: (d) => upper((d.BusinessNames as Obj).DBA_Name),
		distractors: fromPool(BUSINESSES)
	}
];

function pick<T>(items: T[], count: number, random: Random): T[] {
	const pool = [...items];
	const out: T[] = [];
	while (out.length < count && pool.length > 0) out.push(pool.splice(random(pool.length), 1)[0]!);
	return out;
}

export interface GeneratedSet {
	questions: SandboxQuestion[];
	answers: { QuestionID: number; ChoiceID: number }[];
}

/** A fresh set of five questions from the application document, with its right answers. */
export function generateQuestions(doc: Obj, random: Random = cryptoRandom): GeneratedSet {
	const questions: SandboxQuestion[] = [];
	const answers: GeneratedSet['answers'] = [];
	pick(KINDS, QUESTIONS_PER_SET, random).forEach((kind, i) => {
		const answer = kind.answer(doc);
		const others = pick(
			[...new Set(kind.distractors(answer, random))].filter((d) => d !== answer),
			CHOICES_PER_QUESTION - 1,
			random
		);
		// A missing fact, or one question in five: the answer is left out of the choices.
		const noneIsRight = answer === '' || random(5) === 0;
		const shown = noneIsRight ? others : [...others.slice(0, CHOICES_PER_QUESTION - 2)];
		if (!noneIsRight) shown.splice(random(shown.length + 1), 0, answer);
		const texts = [...shown, NONE_OF_THE_ABOVE];
		const QuestionID = i + 1;
		questions.push({
			QuestionID,
			Prompt: kind.prompt,
			Choices: texts.map((Text, c) => ({ ChoiceID: c + 1, Text }))
		});
		answers.push({ QuestionID, ChoiceID: noneIsRight ? texts.length : texts.indexOf(answer) + 1 });
	});
	return { questions, answers };
}

/** Right answers in `given` (each question counted once, by its first answer). */
export function countCorrect(
	right: GeneratedSet['answers'],
	given: { QuestionID: number; ChoiceID: number }[]
): number {
	const chosen = new Map<number, number>();
	for (const a of given) if (!chosen.has(a.QuestionID)) chosen.set(a.QuestionID, a.ChoiceID);
	return right.filter((r) => chosen.get(r.QuestionID) === r.ChoiceID).length;
}
