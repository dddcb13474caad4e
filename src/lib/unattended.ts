/**
 * A cookie the rep console's script sets for the length of one refresh nobody asked for: no touch,
 * key or scroll since the last one (routes/rep/refresh.svelte.ts). Such a refresh is not activity:
 * the rep's session is not kept alive by it (hooks.server.ts, resumeRepSession), so a console
 * left open on a counter times out after the idle limit like any other. It holds no secret; set by
 * hand it can only shorten its own session.
 */
export const UNATTENDED_COOKIE = 'rep_unattended';
