import { LRUCache } from 'lru-cache';

/**
 * The one deliberate piece of server memory: upstream reference data (an office's acceptance
 * language, its applications' list entries) kept per process for a short time, so that a page
 * reload does not call the Onboarding Service again. State still lives in the database: what a
 * merchant was shown is recorded in their session, whichever instance showed it, and what must
 * be current (the Start of a signing, consent) does not rely on this copy. Bounded in age
 * (`ONBOARDING_CACHE_SECONDS`) and in size (`ONBOARDING_CACHE_MB`, least recently used out first).
 */
export interface UpstreamCache {
	/**
	 * The value under `key`: from memory while younger than the age limit, otherwise from `load`
	 * (concurrent misses share one load). `fresh` loads it anew whatever its age, never sharing a
	 * load that began before the call. A failed load is not kept: the next call tries again.
	 */
	get<T extends object>(
		key: string,
		load: () => Promise<T>,
		options?: { fresh?: boolean }
	): Promise<Cached<T>>;
}

export interface Cached<T> {
	value: T;
	/** When it was loaded from the service. */
	fetchedAt: Date;
}

export interface UpstreamCacheOptions {
	/** 0 turns the cache off: every call loads. */
	ttlSeconds: number;
	maxMegabytes: number;
	/** The clock, in milliseconds since 1970 (tests move it). */
	now?: () => number;
}

type Load = () => Promise<object>;

export function createUpstreamCache(options: UpstreamCacheOptions): UpstreamCache {
	// The wall clock: `fetchedAt` is compared with times other instances recorded.
	const now = options.now ?? Date.now;
	if (options.ttlSeconds <= 0 || options.maxMegabytes <= 0) {
		return { get: async (_key, load) => ({ value: await load(), fetchedAt: new Date(now()) }) };
	}
	const cache = new LRUCache<string, Cached<object>, Load>({
		ttl: options.ttlSeconds * 1000,
		// Read the clock on every look-up rather than lru-cache's timer-refreshed copy of it.
		ttlResolution: 0,
		maxSize: Math.max(1, Math.floor(options.maxMegabytes * 1024 * 1024)),
		// An estimate: a JavaScript string takes up to two bytes a character.
		sizeCalculation: (entry) => Math.max(1, 2 * JSON.stringify(entry.value).length),
		fetchMethod: async (_key, _stale, { context }) => ({
			value: await context(),
			fetchedAt: new Date(now())
		}),
		perf: { now },
		// A load overtaken (a fresh read stored its own meanwhile, or the entry was evicted) still
		// answers those waiting on it, and does not replace what is stored now.
		ignoreFetchAbort: true
	});
	return {
		async get<T extends object>(
			key: string,
			load: () => Promise<T>,
			opts: { fresh?: boolean } = {}
		) {
			if (opts.fresh) {
				// Not `fetch` with `forceRefresh`: lru-cache hands that a load already under way,
				// which may have left before what the caller needs to see (an application created a
				// moment ago) was there. A load still under way from before does not replace this one.
				const entry = { value: await load(), fetchedAt: new Date(now()) };
				cache.set(key, entry);
				return entry;
			}
			return (await cache.fetch(key, { context: load })) as Cached<T>;
		}
	};
}

/** The cache the settings ask for. */
export function upstreamCacheFor(config: {
	ONBOARDING_CACHE_SECONDS: number;
	ONBOARDING_CACHE_MB: number;
}): UpstreamCache {
	return createUpstreamCache({
		ttlSeconds: config.ONBOARDING_CACHE_SECONDS,
		maxMegabytes: config.ONBOARDING_CACHE_MB
	});
}
