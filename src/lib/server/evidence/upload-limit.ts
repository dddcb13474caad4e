/**
 * The upload's size limit, on its own: the refusal pages (http/problem.ts, loaded with the hooks)
 * name it without loading the PDF checks that upload.ts brings.
 */

/** A certificate or signed copy is well under this; anything larger is not one of ours. */
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;
/** What a multipart body adds around the file: its boundary and part headers, and some. */
const MULTIPART_MARGIN = 8 * 1024;

/** adapter-node's BODY_SIZE_LIMIT in bytes (its default 512K), as it reads the setting. */
export function bodySizeLimit(setting = process.env.BODY_SIZE_LIMIT): number {
	const value = setting?.trim() || '512K';
	if (/^infinity$/i.test(value)) return Infinity;
	const m = /^(\d+)([KMG]?)$/i.exec(value);
	if (!m) return 512 * 1024;
	const unit = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[m[2]!.toUpperCase()]!;
	return Number(m[1]) * unit;
}

/**
 * The largest file /verify takes: 8 MB, or less when the server's body limit is lower (a body
 * over it is cut off before the portal sees it). The page states it, and checks it before sending.
 */
export function uploadLimit(setting?: string): { bytes: number; words: string } {
	const usable = Math.min(MAX_UPLOAD_BYTES, bodySizeLimit(setting) - MULTIPART_MARGIN);
	// Rounded down to a figure a person reads at a glance: 8 MB, 500 KB.
	const MB = 1024 * 1024;
	const step = usable >= MB ? MB : usable >= 100 * 1024 ? 100 * 1024 : 1024;
	const bytes = Math.max(step, Math.floor(usable / step) * step);
	const words = step === MB ? `${bytes / MB} MB` : `${bytes / 1024} KB`;
	return { bytes, words };
}
