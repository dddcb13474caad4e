import type { Cookies } from '@sveltejs/kit';
import * as v from 'valibot';
import { carried, type CarriedFor } from './carried';

/**
 * "Make a link to copy" answers with a redirect, so that a reload does not post the form again:
 * without script a reload of the form's answer made a new link and ended the one just copied.
 * The address is shown once, and the portal keeps only its token's hash, so it is carried over
 * the redirect in a cookie (carried.ts): encrypted (it opens a merchant's signing), scoped to the
 * application's page, read once and dropped, and of no use after two minutes.
 */
const copiedLink = carried({
	cookie: 'copied-link',
	purpose: 'rep copied-link cookie',
	lifetimeSeconds: 120,
	value: v.object({ url: v.string(), expiresAt: v.number() })
});

export interface CopiedLink {
	url: string;
	expiresAt: Date;
}

export function keepCopied(
	cookies: Cookies,
	url: URL,
	key: Buffer,
	owner: CarriedFor,
	link: CopiedLink,
	now = new Date()
): void {
	copiedLink.keep(
		cookies,
		url,
		key,
		owner,
		{ url: link.url, expiresAt: link.expiresAt.getTime() },
		now
	);
}

/** The link the redirect carried, once (see carried.ts for when it is null). */
export function takeCopied(
	cookies: Cookies,
	url: URL,
	key: Buffer,
	owner: CarriedFor,
	now = new Date()
): CopiedLink | null {
	const kept = copiedLink.take(cookies, url, key, owner, now);
	return kept && { url: kept.url, expiresAt: new Date(kept.expiresAt) };
}
