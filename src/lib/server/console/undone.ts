import * as v from 'valibot';
import { carried } from './carried';

/**
 * An application page's form posted after the rep's session ended (idle, too old): the action is
 * not done, and the sign-in page brings the rep back to the page. What they had typed comes back
 * with them, so that an address typed over the owner's is not silently replaced by it again and a
 * link sent there by a second press (Make a link to copy and Revoke keep only that they were
 * pressed, for the page to say they were not done). Kept in a cookie (carried.ts) for the rep
 * whose session it was, for as long as a rep might take to sign in again; never the SSN (no such
 * form asks for it), and only what the form's own fields took, each as `typedBack` gives it.
 */
const UndoneForm = v.variant('action', [
	v.object({ action: v.literal('send'), email: v.string() }),
	v.object({ action: v.literal('handOver'), idType: v.string(), idLast4: v.string() }),
	// Nothing typed, but the page says what was not done, as for the others.
	v.object({ action: v.literal('copy') }),
	v.object({ action: v.literal('revoke') })
]);

export type UndoneForm = v.InferOutput<typeof UndoneForm>;

const undoneForm = carried({
	cookie: 'undone-form',
	purpose: 'rep undone-form cookie',
	lifetimeSeconds: 30 * 60,
	value: UndoneForm
});

export const keepUndone = undoneForm.keep;
export const takeUndone = undoneForm.take;
