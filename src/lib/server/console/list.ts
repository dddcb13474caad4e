import type { AppContext } from '$lib/server/app';
import { searchFold } from '$lib/fold';
import type { ApplicationListItem } from '$lib/server/onboarding';
import { businessName, officeApplications, ownerName } from '$lib/server/signing/application';
import { loadFacts } from './facts';
import { deriveState, type ConsoleState, type StateRules } from './state';
import { serviceDateParts } from './time';

/**
 * Applications per page of the console's list: a busy office lists hundreds, which on a phone
 * was one page many screens long.
 */
export const PAGE_SIZE = 25;

export interface ConsoleRow {
	applicationId: number;
	business: string;
	legalName: string;
	owner: string;
	ownerEmail: string;
	/** The service's CreatedDate as it gives it (MM/DD/YYYY). */
	created: string;
	state: ConsoleState;
}

export const stateRules = (ctx: AppContext): StateRules => ({
	sessionIdleMinutes: ctx.config.SESSION_IDLE_MINUTES,
	tabletIdleSeconds: ctx.config.IN_PERSON_IDLE_SECONDS,
	identityMaxAttempts: ctx.config.IDENTITY_MAX_ATTEMPTS,
	identityWindowHours: ctx.config.IDENTITY_WINDOW_HOURS
});

/** MM/DD/YYYY (the service's list) as a sortable number; anything else sorts last. */
function createdKey(created: string): number {
	const parts = serviceDateParts(created);
	if (parts) return parts[0] * 10_000 + parts[1] * 100 + parts[2];
	const t = Date.parse(created);
	return Number.isNaN(t) ? 0 : Number(new Date(t).toISOString().slice(0, 10).replaceAll('-', ''));
}

export function toRow(item: ApplicationListItem, state: ConsoleState): ConsoleRow {
	return {
		applicationId: Number(item.ApplicationID),
		business: businessName(item),
		legalName: item.Legal_Name,
		owner: ownerName(item),
		ownerEmail: item.Ownr1_Email,
		created: item.CreatedDate,
		state
	};
}

/** Newest first: by the service's date, then by id (the service numbers in order). */
export function newestFirst(a: ConsoleRow, b: ConsoleRow): number {
	return createdKey(b.created) - createdKey(a.created) || b.applicationId - a.applicationId;
}

/**
 * The office's applications from the service, each with its state from the portal's records. The
 * service's list may be a copy up to one console refresh old (shared by the office's reps); the
 * portal's own records are always read anew.
 */
export async function officeConsole(
	ctx: AppContext,
	officeId: number,
	now = new Date()
): Promise<ConsoleRow[]> {
	const items = await officeApplications(
		ctx,
		officeId,
		ctx.config.CONSOLE_REFRESH_SECONDS,
		now.getTime()
	);
	const mine = items.filter((i) => Number(i.OfficeNo) === officeId);
	const facts = await loadFacts(
		ctx.db,
		officeId,
		mine.map((i) => Number(i.ApplicationID))
	);
	const rules = stateRules(ctx);
	return mine
		.map((item) => {
			const stored = facts.get(Number(item.ApplicationID))!;
			return toRow(item, deriveState({ ...stored, serviceStatus: item.Status }, rules, now));
		})
		.sort(newestFirst);
}

/**
 * Whether a search is exactly one of the office's application numbers, which may run to nine
 * digits and so look like an SSN: those are searched for, anything else SSN-shaped is refused
 * (`routes/rep/+page.server.ts`). Read from the office's list as the console last had it; when
 * it cannot be had, the search is refused, which errs on the side of the SSN.
 */
export async function isOfficeApplicationNumber(
	ctx: AppContext,
	officeId: number,
	typed: string
): Promise<boolean> {
	const digits = typed.trim();
	if (!/^\d{9}$/.test(digits)) return false;
	let items: ApplicationListItem[];
	try {
		items = await officeApplications(ctx, officeId, ctx.config.CONSOLE_REFRESH_SECONDS);
	} catch {
		return false;
	}
	return holdsApplication(items, officeId, digits);
}

/** Whether the office's list holds the application numbered `digits` (as the service writes it). */
export const holdsApplication = (items: ApplicationListItem[], officeId: number, digits: string) =>
	items.some((i) => Number(i.OfficeNo) === officeId && Number(i.ApplicationID) === Number(digits));

/**
 * Search by business (trading or legal name), owner, owner's email or application number,
 * whatever the case or accents typed ("Beltran" finds Beltrán, "cafe" Café), every word typed
 * somewhere among them, in any order: "Beltran Ana", "mesa 50006".
 */
export function matches(row: ConsoleRow, query: string): boolean {
	// A word's punctuation at its ends is the sentence's ("Ortega, Marcus"), not the name's, and a
	// comma or semicolon parts two words with or without a space ("Ortega,Marcus").
	const words = searchFold(query)
		.split(/[ ,;]+/)
		.map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
		.filter(Boolean);
	if (words.length === 0) return true;
	const fields = [
		row.business,
		row.legalName,
		row.owner,
		row.ownerEmail,
		String(row.applicationId)
	].map(searchFold);
	return words.every((word) => fields.some((field) => field.includes(word)));
}

/** One application's state (the application page). */
export async function applicationState(
	ctx: AppContext,
	item: ApplicationListItem,
	officeId: number,
	now = new Date()
): Promise<ConsoleState> {
	const id = Number(item.ApplicationID);
	const facts = await loadFacts(ctx.db, officeId, [id]);
	return deriveState({ ...facts.get(id)!, serviceStatus: item.Status }, stateRules(ctx), now);
}
