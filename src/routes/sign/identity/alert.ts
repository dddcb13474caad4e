/**
 * Takes the merchant to the notice that says what just happened on this page: its first alert,
 * made focusable, so that a screen reader reads it and the next Tab goes on from there rather
 * than from the top (or from nowhere, when the control that had focus left the page). Whether
 * there was one.
 */
export function focusAlert(): boolean {
	const notice = document.querySelector<HTMLElement>('#main [role="alert"]');
	if (!notice) return false;
	notice.setAttribute('tabindex', '-1');
	// The page's top is shown, the step's title above the notice: not only the notice.
	scrollTo(0, 0);
	notice.focus({ preventScroll: true });
	return true;
}
