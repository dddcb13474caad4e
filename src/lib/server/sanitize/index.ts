// sanitizeHtml itself is not here: it loads jsdom, which only the sanitizer's thread should (see
// thread.ts). Tests import it from './sanitize'.
export { SANITIZER_VERSION, type Sanitized } from './version';
export { sanitizeCached, sanitizeAllCached, rawHash } from './cache';
export { sanitizeMany, SanitizerError } from './thread';
