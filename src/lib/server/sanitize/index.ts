export { sanitizeHtml, SANITIZER_VERSION, type Sanitized } from './sanitize';
export { sanitizeCached, sanitizeAllCached, rawHash } from './cache';
