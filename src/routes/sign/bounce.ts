import { afterNavigate, beforeNavigate } from '$app/navigation';

/** The page Back (or Forward) was pressed on, and where it was scrolled. */
let left = { href: '', y: 0 };

/**
 * Back to a step the merchant has passed leads on to the step they are at (the server keeps the
 * order): they are where they were, but kit restores the scroll that the passed step's history
 * entry had, on this page (the done page came back 400px down, its heading out of sight). This
 * page's own scroll is put back instead. For the steps a Back can lead on to: identity, sign, done.
 * Not in the merchant chunk (vite.config.ts): the agreement page, which no Back leads on to,
 * does not load it.
 */
export function keepScrollOnBounce(): void {
	beforeNavigate(({ type, from }) => {
		if (type === 'popstate' && from) left = { href: from.url.href, y: scrollY };
	});
	afterNavigate(({ type, from, to }) => {
		const back = from?.url.href;
		if (type === 'popstate' && back === to?.url.href && back === left.href) scrollTo(0, left.y);
	});
}
