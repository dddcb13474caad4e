import { onMount } from 'svelte';
import { invalidate } from '$app/navigation';
import { navigating } from '$app/state';
import { UNATTENDED_COOKIE } from '$lib/unattended';

/** Whether the page is refreshing itself now, for the words that say so. */
export interface RefreshStatus {
	/** The script runs (without it nothing refreshes: the page says to reload). */
	readonly live: boolean;
	/** Left alone for nearly the idle timeout: no refresh until the rep touches the page again. */
	readonly paused: boolean;
}

/**
 * Re-runs the page's load every few seconds while the tab is visible, so a rep across the counter
 * sees the merchant's progress. Polling is not activity: a refresh with no touch, key or scroll
 * since the one before says so (UNATTENDED_COOKIE), and does not keep the rep's session going, so
 * an unattended console times out after the idle limit. It pauses once nobody has touched the
 * page for nearly that long; past it, it looks once a minute, and the session's end takes the page
 * to the sign-in, with nothing of the office's left on the screen. The rep's next touch refreshes
 * at once and goes on, and so does the tab's coming back to the front.
 */
export function autoRefresh(
	dependency: string,
	seconds: () => number,
	idleMinutes: () => number
): RefreshStatus {
	// Two plain states, not a $state object: a deep proxy would bring Svelte's proxy code into the
	// chunk every page shares, and the merchant's pages' bytes are budgeted (tests/bench).
	let live = $state(false);
	let paused = $state(false);
	// Touched since the last refresh (the page's own load was the rep's request).
	let attended = true;
	// Not while the rep's own click is on its way to another page: kit lets an invalidation "win"
	// over a navigation in flight, and the page the rep asked for would never come.
	const refresh = () => {
		if (document.visibilityState !== 'visible' || navigating.to) return;
		const unattended = !attended;
		attended = false;
		if (unattended) document.cookie = `${UNATTENDED_COOKIE}=1; path=/rep; samesite=strict`;
		void invalidate(dependency).finally(() => {
			if (unattended) document.cookie = `${UNATTENDED_COOKIE}=; path=/rep; max-age=0`;
		});
	};
	onMount(() => {
		let lastTouch = Date.now();
		let lastLook = 0;
		const touched = () => {
			lastTouch = Date.now();
			attended = true;
			if (paused) {
				paused = false;
				refresh();
			}
		};
		const events = ['pointerdown', 'keydown', 'scroll'] as const;
		for (const e of events) window.addEventListener(e, touched, { passive: true });
		// A tab brought back to the front looks at once, not at the next tick: the office's list
		// must not stay on the screen of a tablet handed over in another tab meanwhile (the portal
		// answers the look with the signing step then), nor show a state seconds old.
		const shown = () => {
			if (document.visibilityState === 'visible') refresh();
		};
		document.addEventListener('visibilitychange', shown);
		live = true;
		const timer = setInterval(() => {
			const now = Date.now();
			const idle = now - lastTouch;
			paused = idle >= Math.max(1, idleMinutes() - 1) * 60_000;
			if (!paused) refresh();
			else if (idle >= idleMinutes() * 60_000 && now - lastLook >= 60_000) {
				lastLook = now;
				refresh();
			}
		}, seconds() * 1000);
		return () => {
			clearInterval(timer);
			for (const e of events) window.removeEventListener(e, touched);
			document.removeEventListener('visibilitychange', shown);
		};
	});
	return {
		get live() {
			return live;
		},
		get paused() {
			return paused;
		}
	};
}
