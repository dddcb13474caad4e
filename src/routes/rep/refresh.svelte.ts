import { onMount } from 'svelte';
import { invalidate } from '$app/navigation';
import { navigating } from '$app/state';

/** Whether the page is refreshing itself now, for the words that say so. */
export interface RefreshStatus {
	/** The script runs (without it nothing refreshes: the page says to reload). */
	readonly live: boolean;
	/** Left alone for nearly the idle timeout: no refresh until the rep touches the page again. */
	readonly paused: boolean;
}

/**
 * Re-runs the page's load every few seconds while the tab is visible, so a rep across the counter
 * sees the merchant's progress. It pauses once nobody has touched the page for nearly the idle
 * timeout: polling is not activity, and an unattended console must be able to time out. The rep's
 * next touch refreshes at once and goes on.
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
	// Not while the rep's own click is on its way to another page: kit lets an invalidation "win"
	// over a navigation in flight, and the page the rep asked for would never come.
	const refresh = () => {
		if (document.visibilityState === 'visible' && !navigating.to) void invalidate(dependency);
	};
	onMount(() => {
		let lastTouch = Date.now();
		const touched = () => {
			lastTouch = Date.now();
			if (paused) {
				paused = false;
				refresh();
			}
		};
		const events = ['pointerdown', 'keydown', 'scroll'] as const;
		for (const e of events) window.addEventListener(e, touched, { passive: true });
		live = true;
		const timer = setInterval(() => {
			const limit = Math.max(1, idleMinutes() - 1) * 60_000;
			paused = Date.now() - lastTouch >= limit;
			if (!paused) refresh();
		}, seconds() * 1000);
		return () => {
			clearInterval(timer);
			for (const e of events) window.removeEventListener(e, touched);
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
