import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AppContext } from '$lib/server/app';
import { appendAudit } from '$lib/server/audit/audit';
import { signingSessions, type PresentedSection } from '$lib/server/db/schema';
import type { RequestMeta } from '$lib/server/http/meta';
import { ACCEPTANCE_SECTIONS } from '$lib/server/onboarding';
import { sanitizeAllCached } from '$lib/server/sanitize';
import type { SigningSession } from './session';
import { sessionEvent } from './event';
import { DrawnSection } from '$lib/terms-section';

export interface ShownSection extends PresentedSection {
	html: string;
}

/** The electronic-records disclosure, versioned by its hash in the audit trail. */
export const CONSENT_TEXT = [
	'You agree to receive and sign this agreement and its notices electronically instead of on paper.',
	'You have the right to a paper copy of any record: ask your sales representative and it is sent free of charge.',
	'You may withdraw this consent at any time before you sign by closing this page and telling your sales representative; the application then continues on paper. Withdrawing does not affect what was signed before.',
	'To take part you need a device with a current web browser, an internet connection, an email address, and a way to open or save PDF files. If these requirements change, you will be told and may withdraw without charge.'
];

export const CONSENT_SHA256 = createHash('sha256').update(CONSENT_TEXT.join('\n')).digest('hex');

/** The version of what was shown: every presented section's hash, in order. */
export function termsVersion(sections: PresentedSection[]): string {
	return createHash('sha256')
		.update(sections.map((s) => `${s.key}:${s.sha256}`).join('\n'))
		.digest('hex');
}

export interface OfficeTerms {
	sections: ShownSection[];
	version: string;
	upstreamVersion: string | null;
}

/** The office's acceptance language from the service, its presented sections sanitized. */
async function loadTerms(ctx: AppContext, officeId: number): Promise<OfficeTerms> {
	const language = await ctx.onboarding.getAcceptanceLanguage(officeId);
	const presented = ACCEPTANCE_SECTIONS.filter((s) => {
		const text = language[s.textField];
		return language[s.flag] === true && typeof text === 'string' && text.trim() !== '';
	});
	const clean = await sanitizeAllCached(
		ctx.db,
		presented.map((s) => language[s.textField] as string)
	);
	const sections = presented.map((s, i) => ({
		key: s.key,
		title: s.title,
		html: clean[i]!.html,
		sha256: clean[i]!.sha256
	}));
	return { sections, version: termsVersion(sections), upstreamVersion: language.Version ?? null };
}

/**
 * The office's terms, from the upstream cache. Another instance may already have shown this
 * session a newer version than this instance's copy: then the copy is older than what the
 * merchant saw, and the service is asked again, so that a reload never goes back to old terms.
 */
async function officeTerms(ctx: AppContext, session: SigningSession): Promise<OfficeTerms> {
	const key = `acceptancelanguage:${session.officeId}`;
	const load = () => loadTerms(ctx, session.officeId);
	const cached = await ctx.upstreamCache.get(key, load);
	const seen = session.termsShownAt;
	const behind =
		session.termsVersion !== null &&
		cached.value.version !== session.termsVersion &&
		seen !== null &&
		cached.fetchedAt.getTime() < seen.getTime();
	return behind ? (await ctx.upstreamCache.get(key, load, { fresh: true })).value : cached.value;
}

/**
 * What a page sends the browser of each section. The digests are for the server's records only;
 * each is 64 characters that do not compress, in the data of every terms and review page. A page
 * the server draws sends no HTML either, which the browser reads from the page (DrawnSection);
 * data fetched on its own (`isDataRequest`) carries it.
 */
export function sectionsForPage(sections: ShownSection[], isDataRequest: boolean) {
	return sections.map(({ key, title, html }) =>
		isDataRequest ? { key, title, html } : new DrawnSection(key, title, html)
	);
}

/**
 * The office's acceptance language, sanitized, and records in the session and the audit trail
 * which exact version is on the merchant's screen (once per version, not per reload). Consent
 * is checked against what is recorded here, so it always refers to what the merchant last saw,
 * whichever instance showed it and however old that instance's copy of the terms was.
 */
export async function showTerms(
	ctx: AppContext,
	session: SigningSession,
	meta: RequestMeta
): Promise<OfficeTerms> {
	const terms = await officeTerms(ctx, session);
	const { sections, version } = terms;
	if (session.termsVersion !== version) {
		const shown: PresentedSection[] = sections.map(({ key, title, sha256 }) => ({
			key,
			title,
			sha256
		}));
		await ctx.db.transaction(async (tx) => {
			await tx
				.update(signingSessions)
				.set({ termsShown: shown, termsVersion: version, termsShownAt: new Date() })
				.where(eq(signingSessions.id, session.id));
			await appendAudit(tx, {
				...sessionEvent(session, meta),
				type: 'terms.shown',
				data: { serviceVersion: terms.upstreamVersion, termsVersion: version, sections: shown }
			});
		});
	}
	return terms;
}
