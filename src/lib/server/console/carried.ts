import { hkdfSync } from 'node:crypto';
import type { Cookies } from '@sveltejs/kit';
import * as v from 'valibot';
import { decrypt, encrypt } from '$lib/server/crypto/secretbox';

/**
 * Something an application's page carries over a redirect to itself (copied.ts, undone.ts): in a
 * cookie encrypted under a key of its own, scoped to that page, for one rep of one office, read
 * once and dropped, and of no use after its lifetime. Each kind names its cookie, the purpose its
 * key is derived for, and the shape of what it carries.
 */
export interface CarriedFor {
	officeId: number;
	applicationId: number;
	repId: string;
}

interface Kind<T> {
	cookie: string;
	/** The key's purpose: a box made for one kind opens no other. */
	purpose: string;
	lifetimeSeconds: number;
	value: v.GenericSchema<unknown, T>;
}

export function carried<T>(kind: Kind<T>) {
	const keys = new WeakMap<Buffer, Buffer>();
	function cookieKey(key: Buffer): Buffer {
		let derived = keys.get(key);
		if (!derived) {
			derived = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), kind.purpose, 32));
			keys.set(key, derived);
		}
		return derived;
	}
	const Kept = v.object({
		officeId: v.number(),
		applicationId: v.number(),
		repId: v.string(),
		until: v.number(),
		value: kind.value
	});
	/** The cookie's attributes, the same to set it and to drop it: the application's page only. */
	const options = (url: URL, applicationId: number) => ({
		path: `/rep/applications/${applicationId}`,
		httpOnly: true,
		sameSite: 'strict' as const,
		secure: url.protocol === 'https:'
	});

	return {
		keep(cookies: Cookies, url: URL, key: Buffer, owner: CarriedFor, value: T, now = new Date()) {
			const box = encrypt(
				cookieKey(key),
				JSON.stringify({
					officeId: owner.officeId,
					applicationId: owner.applicationId,
					repId: owner.repId,
					until: now.getTime() + kind.lifetimeSeconds * 1000,
					value
				})
			);
			cookies.set(kind.cookie, box, {
				...options(url, owner.applicationId),
				maxAge: kind.lifetimeSeconds
			});
		},

		/**
		 * What the cookie carried, once: it is dropped whatever it holds. Null when there is none,
		 * or it is another rep's or application's, too old, or not a box this portal made for it.
		 */
		take(cookies: Cookies, url: URL, key: Buffer, owner: CarriedFor, now = new Date()): T | null {
			const box = cookies.get(kind.cookie);
			if (box === undefined) return null;
			cookies.delete(kind.cookie, options(url, owner.applicationId));
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
			return mine && kept.until >= now.getTime() ? kept.value : null;
		}
	};
}
