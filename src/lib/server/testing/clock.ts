import { vi } from 'vitest';

/**
 * Moves the clock to the middle of a fixed rate-limit window of `windowSeconds` (see
 * ratelimit.ts) for a test that counts hits at the time they happen; time still runs from there.
 * A run that straddled a window's edge counted its hits in two windows: CI once let 11 racing
 * opens of a link through where 7 were allowed. Undo with vi.useRealTimers().
 */
export function midWindow(windowSeconds: number): void {
	const ms = windowSeconds * 1000;
	const now = Math.floor(Date.now() / ms) * ms + ms / 2;
	vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now });
}
