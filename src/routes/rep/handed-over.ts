/**
 * A tablet handed to a merchant from one tab must not leave the office's list, or another
 * application, open in the browser's other tabs: the merchant could switch to one. The tab that
 * hands over says so on a channel every console tab of this browser listens to, and each of them
 * hides its page at once and loads it again, which the portal answers with the signing step (or
 * the lock screen), as it does any console address while the tablet is out. Without script no
 * tab hears it; a reload does the same.
 */
const CHANNEL = 'rep-console';
const HANDED_OVER = 'handed-over';

/** This tab is the one handing over: it goes to the signing step itself. */
let handing = false;

/** Said by the tab that handed the tablet over, once the portal has done it. */
export function tellHandedOver(): void {
	handing = true;
	if (typeof BroadcastChannel === 'undefined') return;
	const channel = new BroadcastChannel(CHANNEL);
	channel.postMessage(HANDED_OVER);
	channel.close();
}

/** Every console page listens while it is open (RepShell); returns the way to stop. */
export function leaveOnHandOver(): () => void {
	if (typeof BroadcastChannel === 'undefined') return () => {};
	const channel = new BroadcastChannel(CHANNEL);
	channel.onmessage = (event) => {
		if (event.data !== HANDED_OVER || handing) return;
		document.body.hidden = true;
		location.reload();
	};
	return () => channel.close();
}
