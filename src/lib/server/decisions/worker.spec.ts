import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '$lib/server/app';
import { parseConfig } from '$lib/server/config/config';
import { startWorker } from './worker';

describe('the delivery worker', () => {
	afterEach(() => {
		vi.useRealTimers();
		vi.restoreAllMocks();
	});

	it('logs a failed round by the error’s class and code, never its message', async () => {
		vi.useFakeTimers();
		const lines: string[] = [];
		vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
			lines.push(args.map(String).join(' '));
		});
		// What a driver error looks like: the message quotes the parameters.
		const failure = Object.assign(
			new Error('Failed query: select … params: Dana,dana@blueheron.example'),
			{ cause: Object.assign(new Error('dana@blueheron.example'), { code: '22P05' }) }
		);
		const ctx = {
			config: parseConfig({ DELIVERY_INTERVAL_SECONDS: '1' }),
			db: {
				select: () => {
					throw failure;
				}
			}
		} as unknown as AppContext;
		const stop = startWorker(ctx);
		try {
			await vi.advanceTimersByTimeAsync(1_100);
		} finally {
			stop();
		}
		// Every step of the round failed on the same database; each says which, none says more.
		expect(lines).toContain('[worker] decisions failed: Error <- Error code=22P05');
		for (const line of lines) {
			expect(line).toMatch(/^\[worker\] \w+ failed: /);
			expect(line).not.toMatch(/dana|params/i);
		}
	});
});
