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

/**
 * Loads the office's acceptance language, sanitized, and records in the session and the audit
 * trail which exact version is on the merchant's screen (once per version, not per reload).
 */
export async function showTerms(
	ctx: AppContext,
	session: SigningSession,
	meta: RequestMeta
): Promise<{ sections: ShownSection[]; version: string; upstreamVersion: string | null }> {
	const language = await ctx.onboarding.getAcceptanceLanguage(session.officeId);
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
	const shown: PresentedSection[] = sections.map(({ key, title, sha256 }) => ({
		key,
		title,
		sha256
	}));
	const version = termsVersion(shown);
	if (session.termsVersion !== version) {
		await ctx.db.transaction(async (tx) => {
			await tx
				.update(signingSessions)
				.set({ termsShown: shown, termsVersion: version, termsShownAt: new Date() })
				.where(eq(signingSessions.id, session.id));
			await appendAudit(tx, {
				...sessionEvent(session, meta),
				type: 'terms.shown',
				data: { serviceVersion: language.Version ?? null, termsVersion: version, sections: shown }
			});
		});
	}
	return { sections, version, upstreamVersion: language.Version ?? null };
}
