import type { RequestHandler } from './$types';

/**
 * A handed-over tablet's page says the merchant is still at it (scrolling the agreement touches
 * nothing on the server). The tablet hook (hooks.server.ts) has restarted the hand-over's idle
 * count by the time this answers, as for any signing page; a locked tablet is sent to the lock
 * screen there, and anyone else's call changes nothing.
 */
export const POST: RequestHandler = () => new Response(null, { status: 204 });
