import { certificateFor } from '../certificate';
import type { RequestHandler } from './$types';

/**
 * The signer's copy of the certificate, the records the merchant downloaded when they finished
 * (made and sealed again, so not the same bytes): the one a rep sends them later (the rep's own
 * copy holds the whole trail, for the office only).
 */
export const GET: RequestHandler = certificateFor('merchant');
