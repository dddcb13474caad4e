import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the heap grow past what a major collection left live: 1.5 times, where its
 * own rule goes up to 4 times for a heap under steady allocation. Under 20 concurrent signers the
 * portal's live objects are 45–60 MB, and V8 had grown the heap to 220–244 MB and kept it. The
 * resident set after the benchmark's load went from 319–361 to 201–205 MB on PostgreSQL and from
 * 455–477 to 329–332 MB on PGlite, with requests/s within the runs' noise and a longer p99 on
 * some pages (tests/bench/NOTES.md §11). A factor of 2 kept 228 and 343 MB. Set at start rather
 * than on the command line so that every way of running the build (`npm start`, `node build`, a
 * supervisor) gets it; V8 reads the factor each time it sizes the heap, so it takes effect here.
 */
export function limitHeapGrowth(): void {
	setFlagsFromString('--heap-growing-percent=50');
}
