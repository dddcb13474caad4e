import { afterNavigate, beforeNavigate } from '$app/navigation';

/** Where this page was scrolled when the browser's Back (or Forward) was pressed on it. */
let left = 0;

/**
 * Back to a step the merchant has passed leads on to the step they are at (the server keeps the
 * order): they are where they were, but kit restores the scroll that the passed step's history
 * entry had, on this page (the done page came back 400px down, its heading out of sight). This
 * page's own scroll is put back instead. For the steps a Back can lead on to: identity, sign, done.
 * Not in the merchant chunk (vite.config.ts): the agreement page, which no Back leads on to,
 * does not load it.
 */
export function keepScrollOnBounce(): void {
	beforeNavigate(({ type }) => {
		if (type === 'popstate') left = scrollY;
	});
	afterNavigate(({ type, from, to }) => {
		if (type === 'popstate' && from && from.url.href === to?.url.href) scrollTo(0, left);
	});
}
