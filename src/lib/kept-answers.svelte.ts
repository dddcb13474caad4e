const PREFIX = 'identity-answers:';

/**
 * Removes every kept answer from this tab: when the answers are sent, and on the tablet's lock
 * screen, so nothing a merchant chose stays in a tablet that goes back to the rep.
 */
export function forgetKeptAnswers(): void {
	for (let i = sessionStorage.length - 1; i >= 0; i--) {
		const k = sessionStorage.key(i);
		if (k?.startsWith(PREFIX)) sessionStorage.removeItem(k);
	}
}

/**
 * The answers chosen so far in this tab, so reloading the questions (same set, same clock) keeps
 * them. They stay in the browser's session storage, which the tab alone sees and which ends with
 * it, and are removed when the answers are sent; the server never keeps them.
 */
export class KeptAnswers {
	answers = $state<Record<string, string>>({});
	#key: () => string | null;

	/** `attempt` names the open try (its deadline), so another try never sees these. */
	constructor(attempt: () => string | null) {
		this.#key = () => {
			const a = attempt();
			return a ? `${PREFIX}${a}` : null;
		};
		$effect(() => {
			const key = this.#key();
			if (!key) return;
			try {
				this.answers = JSON.parse(sessionStorage.getItem(key) ?? '{}') as Record<string, string>;
			} catch {
				this.answers = {};
			}
		});
	}

	choose(question: string, choice: string) {
		const key = this.#key();
		this.answers = { ...this.answers, [question]: choice };
		if (key) sessionStorage.setItem(key, JSON.stringify(this.answers));
	}

	clear() {
		forgetKeptAnswers();
		this.answers = {};
	}
}
