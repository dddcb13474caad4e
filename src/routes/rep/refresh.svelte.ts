import { onMount } from 'svelte';
import { invalidate } from '$app/navigation';
import { navigating } from '$app/state';

/**
 * Re-runs the page's load every few seconds while the tab is visible, so a rep across the counter
 * sees the merchant's progress. It stops once nobody has touched the page for nearly the idle
 * timeout: polling is not activity, and an unattended console must be able to time out.
 */
export function autoRefresh(dependency: string, seconds: () => number, idleMinutes: () => number) {
	onMount(() => {
		let lastTouch = Date.now();
		const touched = () => (lastTouch = Date.now());
		const events = ['pointerdown', 'keydown', 'scroll'] as const;
		for (const e of events) window.addEventListener(e, touched, { passive: true });
		const timer = setInterval(() => {
			const quietFor = Date.now() - lastTouch;
			const limit = Math.max(1, idleMinutes() - 1) * 60_000;
			// Not while the rep's own click is on its way to another page: kit lets an invalidation
			// "win" over a navigation in flight, and the page the rep asked for would never come.
			if (document.visibilityState === 'visible' && quietFor < limit && !navigating.to) {
				void invalidate(dependency);
			}
		}, seconds() * 1000);
		return () => {
			clearInterval(timer);
			for (const e of events) window.removeEventListener(e, touched);
		};
	});
}
