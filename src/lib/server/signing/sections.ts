import { ACCEPTANCE_SECTIONS } from '$lib/server/onboarding';

export type SectionKey = (typeof ACCEPTANCE_SECTIONS)[number]['key'];

export const SECTION_KEYS = ACCEPTANCE_SECTIONS.map((s) => s.key) as SectionKey[];

export function noSections(): Record<SectionKey, boolean> {
	return Object.fromEntries(SECTION_KEYS.map((k) => [k, false])) as Record<SectionKey, boolean>;
}
