import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db';
import { sandboxAcceptanceOverrides } from '../../db/schema';
import {
	ACCEPTANCE_VERSION,
	INDIVIDUAL_GUARANTY,
	NEXT_DAY_FUNDING,
	PAYMENT_RECEIPT,
	SEASONAL_ADDENDUM,
	TERMS_AND_CONDITIONS
} from './text';

export const SECTIONS = [
	'TermsAndConditions',
	'PaymentReceipt',
	'IndividualGuaranty',
	'SeasonalAddendum',
	'NextDayFunding'
] as const;

export type Section = (typeof SECTIONS)[number];

export interface SectionOverride {
	html?: string | null;
	presented?: boolean;
}

interface SectionDefault {
	presented: boolean;
	html: string | null;
	/** The text served when a test turns the section on without giving HTML. */
	whenPresented: string;
}

/** Every office is served the same default language (only office 1207 is seeded, but reps of
 * other offices can still try the flow). SeasonalAddendum is off, as in the contract's example. */
const DEFAULTS: Record<Section, SectionDefault> = {
	TermsAndConditions: {
		presented: true,
		html: TERMS_AND_CONDITIONS,
		whenPresented: TERMS_AND_CONDITIONS
	},
	PaymentReceipt: { presented: true, html: PAYMENT_RECEIPT, whenPresented: PAYMENT_RECEIPT },
	IndividualGuaranty: {
		presented: true,
		html: INDIVIDUAL_GUARANTY,
		whenPresented: INDIVIDUAL_GUARANTY
	},
	SeasonalAddendum: { presented: false, html: null, whenPresented: SEASONAL_ADDENDUM },
	NextDayFunding: { presented: true, html: NEXT_DAY_FUNDING, whenPresented: NEXT_DAY_FUNDING }
};

export const isSection = (s: string): s is Section => (SECTIONS as readonly string[]).includes(s);

/** The AcceptanceLanguage object for an office (the contract's assumed shape). */
export async function acceptanceLanguage(
	tx: Tx,
	officeId: number
): Promise<Record<string, unknown>> {
	const rows = await tx
		.select()
		.from(sandboxAcceptanceOverrides)
		.where(eq(sandboxAcceptanceOverrides.officeId, officeId));
	const overrides = new Map(rows.map((r) => [r.section, r.override]));
	const out: Record<string, unknown> = { OfficeID: officeId, Version: ACCEPTANCE_VERSION };
	const texts: Record<string, unknown> = {};
	for (const section of SECTIONS) {
		const d = DEFAULTS[section];
		const o = overrides.get(section) ?? {};
		const presented = o.presented ?? d.presented;
		const html =
			o.html !== undefined
				? o.html
				: o.presented === true && d.html === null
					? d.whenPresented
					: d.html;
		out[`Accept_${section}_Prod`] = presented;
		texts[`${section}_Text`] = html;
	}
	return { ...out, ...texts };
}

/** Merges an override into what is stored for that section (a later PUT refines an earlier one). */
export async function putOverride(
	tx: Tx,
	officeId: number,
	section: Section,
	override: SectionOverride
): Promise<void> {
	const [existing] = await tx
		.select()
		.from(sandboxAcceptanceOverrides)
		.where(
			and(
				eq(sandboxAcceptanceOverrides.officeId, officeId),
				eq(sandboxAcceptanceOverrides.section, section)
			)
		);
	const merged = { ...(existing?.override ?? {}), ...override };
	await tx
		.insert(sandboxAcceptanceOverrides)
		.values({ officeId, section, override: merged })
		.onConflictDoUpdate({
			target: [sandboxAcceptanceOverrides.officeId, sandboxAcceptanceOverrides.section],
			set: { override: merged }
		});
}

export async function clearOverrides(tx: Tx, officeId: number): Promise<void> {
	await tx
		.delete(sandboxAcceptanceOverrides)
		.where(eq(sandboxAcceptanceOverrides.officeId, officeId));
}
