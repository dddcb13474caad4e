import { describe, expect, it, vi } from 'vitest';
import { createUpstreamCache } from './cache';

function clocked(ttlSeconds: number, maxMegabytes = 16) {
	let now = 1_000_000;
	const cache = createUpstreamCache({ ttlSeconds, maxMegabytes, now: () => now });
	return { cache, advance: (ms: number) => (now += ms) };
}

describe('the upstream cache', () => {
	it('serves a value until it is older than the limit, then loads it again', async () => {
		const { cache, advance } = clocked(60);
		const load = vi.fn(async () => ({ n: load.mock.calls.length }));
		const first = await cache.get('k', load);
		expect(first.value).toEqual({ n: 1 });
		advance(59_000);
		expect((await cache.get('k', load)).value).toEqual({ n: 1 });
		expect(load).toHaveBeenCalledTimes(1);
		advance(2_000);
		const later = await cache.get('k', load);
		expect(later.value).toEqual({ n: 2 });
		expect(later.fetchedAt.getTime() - first.fetchedAt.getTime()).toBe(61_000);
	});

	it('loads anew when asked for a fresh value, and keeps that', async () => {
		const { cache } = clocked(60);
		let n = 0;
		const load = async () => ({ n: ++n });
		await cache.get('k', load);
		expect((await cache.get('k', load, { fresh: true })).value).toEqual({ n: 2 });
		expect((await cache.get('k', load)).value).toEqual({ n: 2 });
	});

	it('never answers a fresh read with a load that began before it', async () => {
		const { cache } = clocked(60);
		// The service's list gains an entry while an earlier load is still on its way.
		let upstream = { version: 1 };
		const slow = () =>
			new Promise<{ version: number }>((resolve) => {
				const seen = upstream;
				setTimeout(() => resolve(seen), 30);
			});
		const earlier = cache.get('k', slow);
		upstream = { version: 2 };
		const fresh = await cache.get('k', async () => upstream, { fresh: true });
		expect(fresh.value).toEqual({ version: 2 });
		expect((await earlier).value).toEqual({ version: 1 });
		// The earlier load, ending last, does not put the older copy back.
		expect((await cache.get('k', slow)).value).toEqual({ version: 2 });
	});

	it('makes concurrent misses share one load', async () => {
		const { cache } = clocked(60);
		const load = vi.fn(async () => {
			await new Promise((r) => setTimeout(r, 20));
			return { ok: true };
		});
		const all = await Promise.all([
			cache.get('k', load),
			cache.get('k', load),
			cache.get('k', load)
		]);
		expect(all.map((a) => a.value)).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
		expect(load).toHaveBeenCalledTimes(1);
	});

	it('keeps no failure: the next call asks again', async () => {
		const { cache } = clocked(60);
		await expect(cache.get('k', async () => Promise.reject(new Error('down')))).rejects.toThrow(
			'down'
		);
		expect((await cache.get('k', async () => ({ up: true }))).value).toEqual({ up: true });
	});

	it('holds no more than its size: the least recently used goes first', async () => {
		// 0.01 MB ≈ 10 KB, and each value is about 3 KB (two bytes a character).
		const { cache } = clocked(60, 0.01);
		const big = (tag: string) => async () => ({ tag, text: 'x'.repeat(1500) });
		for (const k of ['a', 'b', 'c']) await cache.get(k, big(k));
		await cache.get('a', big('a2')); // a is used again
		await cache.get('d', big('d')); // b, the least recently used, makes room
		const reload = vi.fn(big('again'));
		expect((await cache.get('a', reload)).value.tag).toBe('a');
		expect((await cache.get('b', reload)).value.tag).toBe('again');
		expect(reload).toHaveBeenCalledTimes(1);
	});

	it('does nothing when turned off (0 seconds)', async () => {
		const { cache } = clocked(0);
		const load = vi.fn(async () => ({}));
		await cache.get('k', load);
		await cache.get('k', load);
		expect(load).toHaveBeenCalledTimes(2);
	});
});
