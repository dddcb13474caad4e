import { error, type RequestEvent } from '@sveltejs/kit';
import { eq, sql, type Column } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppContext } from '$lib/server/app';
import { preparedPer } from '$lib/server/db/prepared';
import { signingLinks } from '$lib/server/db/schema';
import { clientIp } from '$lib/server/http/meta';
import {
	judgePass,
	lockOf,
	passesJson,
	triesJson,
	triesWindow,
	type EarlierPass
} from '$lib/server/identity/attempts';
import {
	countHitsOf,
	hit,
	judge,
	windowStartOf,
	type Limit,
	type LimitResult
} from '$lib/server/ratelimit/ratelimit';
import { endedBy, orOffice, repContactOf, type RepContact } from '$lib/server/reps/contact';
import {
	findLink,
	howRevoked,
	howUsed,
	linkState,
	lookupHash,
	type Revoked,
	type SigningLink
} from './links';
import { limitAddress } from '$lib/server/http/address';
import {
	currentStep,
	openSessionOnLink,
	SESSION_COOKIE,
	sessionOnLink,
	type Step
} from '$lib/server/signing/session';

/** What is left of a session that outlived its link, said on the way back to it. */
const STILL_TO_DO: Record<Step, string> = {
	terms: 'Next is the agreement, to read and agree to.',
	identity: 'You have agreed to the terms: the identity questions are next.',
	sign: 'Your identity is confirmed: all that is left is to accept and sign, or decline.',
	done: ''
};

const MESSAGES = {
	unknown: [
		404,
		'This link isn’t valid. Check that you opened the whole link from your email, or ask your sales representative for a new one.'
	],
	expired: [410, 'This link has expired. Ask your sales representative to send you a new one.'],
	replaced: [
		410,
		'This link has been replaced by a newer one. Use the most recent email you received, or ask your sales representative for a new link.'
	],
	// The newer link is in no email: the merchant's mail holds only links that no longer open.
	replaced_unsent: [
		410,
		'This link has been replaced by a newer one, which wasn’t emailed: your sales representative passes it on another way. If you don’t have it, ask them for it.'
	],
	// The newer link no longer opens either (revoked, expired or used in its turn).
	replaced_closed: [
		410,
		'This link has been replaced by a newer one, which no longer opens either. Ask your sales representative for a new link if you still want to sign.'
	],
	// Revoked with no newer link: the rep withdrew it ("Revoke the link").
	withdrawn: [
		410,
		'Your sales representative has withdrawn this link, so it no longer opens. Ask them for a new one if you still want to sign.'
	],
	// Revoked when the rep handed a tablet over to sign this application in person.
	in_person: [
		410,
		'This link closed when your sales representative began signing this application with you in person. If that signing wasn’t finished, ask them how to go on.'
	],
	// Any session's decision (or decline) uses up every link of the application, opened or not.
	decided: [
		410,
		'A decision on this application is already on record, so this link no longer opens. Your sales representative can tell you where things stand, and send you copies of the documents.'
	],
	// A decline before identity: no decision, and so no documents to send.
	declined: [
		410,
		'This application was declined, so this link no longer opens. If you have changed your mind, ask your sales representative for a new link.'
	]
} as const;

const WINDOW_SECONDS = 600;

/** Opens of one link are counted under this key and the link's id. */
const OPENS_KEY = 'open:link:';

const opensOf = (ctx: AppContext, linkId: string): Limit => ({
	key: `${OPENS_KEY}${linkId}`,
	max: ctx.config.RATE_LIMIT_LINK_OPEN,
	windowSeconds: WINDOW_SECONDS
});

const OPENS_MESSAGE =
	'This link has been opened many times in the last few minutes. Wait a few minutes and try again.';

/** Ends in 429 unless the limit allows the hit it has counted. */
function allow(event: RequestEvent, r: LimitResult, message: string) {
	if (r.ok) return;
	event.setHeaders({ 'retry-after': String(r.retryAfterSeconds) });
	error(429, { message });
}

async function count(ctx: AppContext, event: RequestEvent, limit: Limit, message: string) {
	allow(event, await hit(ctx.db, limit), message);
}

/**
 * Looks a token up for the link page's actions (its view: openLinkView); ends in an error page
 * unless the link can be used. Two limits, each on what it protects, so that a neighbour behind the same address
 * (a shop's NAT, a mobile carrier's) cannot lock merchants out:
 * - tokens that match no link are counted per address, which keeps guessing slow (a 256-bit
 *   token cannot be guessed anyway; a real token is honoured from any address);
 * - opens of a real link are counted per link, which bounds what one leaked link can start.
 */
export async function openLink(
	ctx: AppContext,
	event: RequestEvent,
	token: string
): Promise<SigningLink> {
	return admitLink(ctx, event, await findLink(ctx.db, token));
}

/** Tokens that name no link, counted per address (see openLink). */
const missesOf = (ctx: AppContext, event: RequestEvent): Limit => ({
	key: `open:miss:${limitAddress(clientIp(event))}`,
	max: ctx.config.RATE_LIMIT_LINK_MISS,
	windowSeconds: WINDOW_SECONDS
});

/**
 * Whom a link's pages name: whoever ended it (the rep who took the signing in person, say), else
 * its sender or its application's rep; else, and for a link we do not know, the office contact
 * when one is set.
 */
async function linkRep(
	ctx: AppContext,
	link: SigningLink | undefined,
	revoked: Revoked | null
): Promise<RepContact | null> {
	if (!link) return orOffice(ctx, null);
	return orOffice(
		ctx,
		(await endedBy(ctx, link.officeId, revoked?.by)) ?? (await repContactOf(ctx, link))
	);
}

/**
 * Whom a post to a link's page that was refused before the page (a control character pasted, a
 * body too large: hooks.server.ts) names, as the page names them. Counted as the page's own
 * actions count a post, as an open of the link or a token that names none, and no one is
 * looked up once over either limit: a refused post costs no more than one that is taken.
 */
export async function refusedPostRep(
	ctx: AppContext,
	event: RequestEvent,
	token: string
): Promise<RepContact | null | undefined> {
	const link = await findLink(ctx.db, token);
	if (!(await hit(ctx.db, link ? opensOf(ctx, link.id) : missesOf(ctx, event))).ok) return;
	const revoked = linkState(link) === 'revoked' ? await howRevoked(ctx.db, link!.id) : null;
	return linkRep(ctx, link, revoked);
}

/**
 * openLink's checks on a link looked up by `token`. The link page's view passes `opens`, the link's
 * opens it counted itself (this one included); else they are counted here.
 */
async function admitLink(
	ctx: AppContext,
	event: RequestEvent,
	link: SigningLink | undefined,
	opens?: number
): Promise<SigningLink> {
	if (link && opens !== undefined) {
		allow(event, judge(opensOf(ctx, link.id), opens), OPENS_MESSAGE);
	} else if (!link) {
		await count(
			ctx,
			event,
			missesOf(ctx, event),
			'Too many links that don’t exist were tried from your network. Wait a few minutes, then open the link from your email again.'
		);
	} else {
		await count(ctx, event, opensOf(ctx, link.id), OPENS_MESSAGE);
	}
	const state = linkState(link);
	if (state !== 'valid') {
		const revoked = state === 'revoked' ? await howRevoked(ctx.db, link!.id) : null;
		// A revoked link of an application decided or declined since says so, as a used one does:
		// nothing is left to sign, whatever ended it.
		const why =
			state === 'revoked'
				? revoked!.decided
					? 'decided'
					: revoked!.declined
						? 'declined'
						: revoked!.how
				: state === 'used'
					? await howUsed(ctx.db, link!)
					: state;
		const [status, message] = MESSAGES[why];
		const rep = await linkRep(ctx, link, revoked);
		// Decided a moment ago in this browser, and the tab closed: the way back to the confirmation
		// and copies, which only this browser's session opens (another device would be told there is
		// nothing there).
		const own =
			why === 'decided' && link
				? await sessionOnLink(
						ctx.db,
						event.cookies.get(SESSION_COOKIE),
						link.id,
						ctx.config.SESSION_IDLE_MINUTES
					)
				: undefined;
		// The decision's own session (a decline before identity, in this browser, made none).
		const done = own?.decisionId ? { doneWithin: ctx.config.SESSION_IDLE_MINUTES } : {};
		// Expired while a session on it is still open (a session outlives its link's expiry: the
		// merchant started in time): the way on, not "ask for a new link", which would end it.
		if (why === 'expired' && link) {
			const idle = ctx.config.SESSION_IDLE_MINUTES;
			const title = 'This link has expired';
			const own = await sessionOnLink(ctx.db, event.cookies.get(SESSION_COOKIE), link.id, idle);
			if (own) {
				const step = currentStep(own);
				error(status, {
					title,
					message: `You started signing with it in this browser before it expired, and can still finish. ${STILL_TO_DO[step]}`,
					rep,
					resume: step
				});
			}
			if (await openSessionOnLink(ctx.db, link, idle)) {
				error(status, {
					title,
					message:
						'Signing with it was started on another device or browser before it expired, and can still be finished there. Go back to that one. If you can’t, ask your sales representative for a new link (which ends that signing).',
					rep
				});
			}
		}
		error(status, { message, rep, ...done });
	}
	return link!;
}

/**
 * The link page's view, in one statement: the link a token names, one more open of it counted
 * (as openLink counts it) and its application's identity passes and lost tries. As three
 * statements they held the page to 0.23× the framework's floor on PGlite and 0.30× on
 * PostgreSQL; as one, 0.35× and 0.38× (tests/bench/NOTES.md §10). A token that names no link is
 * counted by address, as before.
 */
const linkViewQuery = preparedPer((db) => {
	const byToken = (tokenHash: Column) => eq(tokenHash, sql.placeholder('tokenHash'));
	const opened = db.$with('opened').as(
		countHitsOf(
			db,
			db
				.select({
					key: sql<string>`${sql.placeholder('opensKey')}::text || ${signingLinks.id}`.as('key'),
					windowStart: sql<Date>`${sql.placeholder('windowStart')}::timestamptz`.as('window_start'),
					count: sql<number>`1`.as('count')
				})
				.from(signingLinks)
				.where(byToken(signingLinks.tokenHash))
		)
	);
	const link = alias(signingLinks, 'link');
	const ofLink = { officeId: link.officeId, applicationId: link.applicationId };
	return db
		.with(opened)
		.select({
			link,
			opens: sql<number>`(select ${opened.count} from ${opened})`,
			passes: passesJson(db, ofLink),
			lost: triesJson(db, ofLink)
		})
		.from(link)
		.where(byToken(link.tokenHash))
		.prepare('link_view');
});

/**
 * openLink for the link page's view, with whether an earlier pass of its application carries to
 * it (see earlierPass) and, when none does, until when its identity questions are locked (the
 * portal's lock: one the bureau set is known only when it is asked).
 */
export async function openLinkView(
	ctx: AppContext,
	event: RequestEvent,
	token: string,
	now = new Date()
): Promise<{ link: SigningLink; earlier: EarlierPass; lockedUntil: Date | null }> {
	const tokenHash = lookupHash(token);
	const windowStart = windowStartOf(WINDOW_SECONDS, now);
	const [row] = tokenHash
		? await linkViewQuery(ctx.db).execute({
				tokenHash,
				opensKey: OPENS_KEY,
				windowStart: windowStart.toISOString(),
				...triesWindow(ctx, now)
			})
		: [];
	// Without a row admitLink ends in the error page: past it, the row is there.
	const link = await admitLink(ctx, event, row?.link, row ? Number(row.opens) : undefined);
	const earlier = judgePass(row!.passes, link.id, link.email, 'link');
	return {
		link,
		earlier,
		lockedUntil: earlier.kind === 'none' ? lockOf(ctx, row!.lost, now) : null
	};
}
