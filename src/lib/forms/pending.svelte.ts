import { tick } from 'svelte';
import type { ActionResult, SubmitFunction } from '@sveltejs/kit';

/**
 * Where a reader should be after a post came back to the same page: the error summary when there
 * is one, else the page's heading (e.g. the decline confirmation). Focusing it also scrolls it
 * into view, which on a phone is the difference between seeing an error and not.
 */
async function focusOutcome() {
	await tick();
	const target =
		document.querySelector<HTMLElement>('#main [role="alert"]') ??
		document.querySelector<HTMLElement>('#main h1');
	if (!target) return;
	target.setAttribute('tabindex', '-1');
	target.focus();
}

/**
 * A form's in-flight state for `use:enhance`: its buttons disable while a post is on its way, so
 * an impatient second tap does not post twice. What was typed stays after an error.
 */
export class Pending {
	active = $state(false);

	submit: SubmitFunction = () => {
		this.active = true;
		return async ({ update, result }) => {
			await update({ reset: false });
			this.active = false;
			if (result.type === 'failure' || result.type === 'success') await focusOutcome();
		};
	};

	/** As `submit`, with steps of the caller's: `before` the page takes the answer, `after` it has. */
	around =
		(steps: { before?: () => void; after?: (result: ActionResult) => unknown }): SubmitFunction =>
		(input) => {
			const update = this.submit(input);
			return async (opts) => {
				steps.before?.();
				await (update as (o: typeof opts) => Promise<void>)(opts);
				await steps.after?.(opts.result);
			};
		};

	/** As `submit`, and the password field empties whatever the answer (as it does without script). */
	clearing = (field: () => HTMLInputElement | undefined): SubmitFunction =>
		this.around({
			before: () => {
				const el = field();
				if (el) el.value = '';
			}
		});
}
