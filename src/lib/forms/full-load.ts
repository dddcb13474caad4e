import type { SubmitFunction } from '@sveltejs/kit';
import type { Pending } from './pending.svelte';

/**
 * `use:enhance` that ends a redirect with a full page load, not a client-side navigation: the
 * page before leaves nothing behind (SvelteKit keeps the first page's data in a script in the
 * document), which matters when a tablet changes hands between a rep and a merchant.
 */
export const fullLoad =
	(pending?: Pending): SubmitFunction =>
	async (input) => {
		const after = await pending?.submit(input);
		return async (opts) => {
			if (opts.result.type === 'redirect') {
				location.replace(opts.result.location);
				return;
			}
			await (after ? after(opts) : opts.update());
		};
	};
