import { hkdfSync } from 'node:crypto';
import type { Cookies } from '@sveltejs/kit';
import * as v from 'valibot';
import { decrypt, encrypt } from '$lib/server/crypto/secretbox';

/**
 * "Make a link to copy" answers with a redirect, so that a reload does not post the form again:
 * without script a reload of the form's answer made a new link and ended the one just copied.
 * The address is shown once, and the portal keeps only its token's hash, so it is carried over
 * the redirect in this cookie: encrypted (it opens a merchant's signing), scoped to the
 * application's page, read once and dropped, and of no use after two minutes.
 */
const COOKIE = 'copied-link';
const LIFETIME_SECONDS = 120;

export interface CopiedLink {
	url: string;
	expiresAt: Date;
}

interface Owner {
	officeId: number;
	applicationId: number;
	repId: string;
}

/** A key of its own, derived from the portal's: a box made for this cookie opens nothing else. */
const keys = new WeakMap<Buffer, Buffer>();
function cookieKey(key: Buffer): Buffer {
	let derived = keys.get(key);
	if (!derived) {
		derived = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'rep copied-link cookie', 32));
		keys.set(key, derived);
	}
	return derived;
}

const Kept = v.object({
	officeId: v.number(),
	applicationId: v.number(),
	repId: v.string(),
	url: v.string(),
	expiresAt: v.number(),
	until: v.number()
});

/** The cookie's attributes, the same to set it and to drop it: the application's page only. */
const cookieOptions = (url: URL, applicationId: number) => ({
	path: `/rep/applications/${applicationId}`,
	httpOnly: true,
	sameSite: 'strict' as const,
	secure: url.protocol === 'https:'
});

export function keepCopied(
	cookies: Cookies,
	url: URL,
	key: Buffer,
	owner: Owner,
	link: CopiedLink,
	now = new Date()
): void {
	const box = encrypt(
		cookieKey(key),
		JSON.stringify({
			...owner,
			url: link.url,
			expiresAt: link.expiresAt.getTime(),
			until: now.getTime() + LIFETIME_SECONDS * 1000
		})
	);
	cookies.set(COOKIE, box, {
		...cookieOptions(url, owner.applicationId),
		maxAge: LIFETIME_SECONDS
	});
}

/**
 * The link the redirect carried, once: the cookie is dropped whatever it holds. Null when there
 * is none, or it is another rep's or application's, too old, or not a box this portal made.
 */
export function takeCopied(
	cookies: Cookies,
	url: URL,
	key: Buffer,
	owner: Owner,
	now = new Date()
): CopiedLink | null {
	const box = cookies.get(COOKIE);
	if (box === undefined) return null;
	cookies.delete(COOKIE, cookieOptions(url, owner.applicationId));
	let opened: unknown;
	try {
		opened = JSON.parse(decrypt(cookieKey(key), box));
	} catch {
		return null;
	}
	const parsed = v.safeParse(Kept, opened);
	if (!parsed.success) return null;
	const kept = parsed.output;
	const mine =
		kept.officeId === owner.officeId &&
		kept.applicationId === owner.applicationId &&
		kept.repId === owner.repId;
	if (!mine || kept.until < now.getTime()) return null;
	return { url: kept.url, expiresAt: new Date(kept.expiresAt) };
}
