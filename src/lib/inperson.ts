/**
 * A handed-over tablet locks after `IN_PERSON_IDLE_SECONDS` without a touch, counted by the page
 * and by the server. A merchant reading the agreement touches only the page (scrolling), so while
 * they do, the page tells the server at most this often (`/sign/still-here`).
 */
export const stillHereEveryMs = (idleSeconds: number) => Math.min(15_000, idleSeconds * 250);

/**
 * How long before the idle lock the page says it is coming, with a button to stay: 30 s (at least
 * the 20 s WCAG's timing rule asks for), or a third of a shorter limit.
 */
export const warnBeforeMs = (idleSeconds: number) =>
	Math.min(30_000, Math.round(idleSeconds / 3) * 1000);

/** The server writes a touch at most this often: reading a page is not a write every time. */
export const touchEveryMs = (idleSeconds: number) => Math.min(15_000, idleSeconds * 100);

/**
 * How long the server waits past the idle limit before it locks on its own: the page's last word
 * can be up to one interval of each behind the merchant's last touch, and the page's timer is the
 * one that clears the screen on time.
 */
export const serverIdleMs = (idleSeconds: number) =>
	idleSeconds * 1000 + stillHereEveryMs(idleSeconds) + touchEveryMs(idleSeconds);
