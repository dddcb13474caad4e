import { databaseProblem } from '$lib/server/db/problems';
import { causes } from './causes';
import { describeError } from './log';

const REMIND_MS = 10 * 60_000;

/**
 * Something the portal does again and again (a health probe, a worker's step) while a part it
 * needs is down: one line when it starts failing or fails another way, a reminder every ten
 * minutes while it still fails, and one when it works again. A line per probe or per tick would
 * bury the rest of the log (four lines every few seconds per instance while the database is down).
 */
export class Outage {
	#since: number | null = null;
	#said = '';
	#failures = 0;
	#lastLine = 0;

	constructor(
		private readonly where: string,
		private readonly what: string
	) {}

	failed(err: unknown, now = Date.now()): void {
		const said = inWords(err);
		this.#failures++;
		if (this.#since !== null && said === this.#said && now - this.#lastLine < REMIND_MS) return;
		const still =
			this.#since === null
				? ''
				: ` (failing since ${new Date(this.#since).toISOString()}, ${this.#failures} times)`;
		console.error(`[${this.where}] ${this.what} failed: ${said}${still}`);
		this.#since ??= now;
		this.#said = said;
		this.#lastLine = now;
	}

	worked(): void {
		if (this.#since === null) return;
		console.info(
			`[${this.where}] ${this.what} works again, after ${this.#failures} ${this.#failures === 1 ? 'failure' : 'failures'} since ${new Date(this.#since).toISOString()}`
		);
		this.#since = null;
		this.#said = '';
		this.#failures = 0;
	}
}

/**
 * An error in our words: the database's trouble as a start names it (nothing answers at the
 * host, the password refused…; see databaseProblem), else its class and code (describeError).
 */
export function inWords(err: unknown): string {
	for (const e of causes(err)) {
		const words = e && typeof e === 'object' && databaseProblem(e, process.env.DATABASE_URL);
		if (words) return `the database: ${words}`;
	}
	return describeError(err);
}
