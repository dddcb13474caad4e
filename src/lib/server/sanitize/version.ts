import createDOMPurify from 'dompurify';

export interface Sanitized {
	html: string;
	/** SHA-256 (hex) of the exact `html`: the version of the terms the signer was shown. */
	sha256: string;
}

/**
 * Part of the cache key: bump it whenever the policy changes, so stored results made under the
 * old policy are no longer used. DOMPurify's own version is included for the same reason. (Kept
 * apart from sanitize.ts, which loads jsdom: the main thread needs this, not that.)
 */
export const SANITIZER_VERSION = `portal-sanitizer-4/dompurify-${createDOMPurify.version}:`;
