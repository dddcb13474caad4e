import { certificateFor } from '../certificate';
import type { RequestHandler } from './$types';

/** The rep's copy of the certificate of completion: the merchant's, plus the whole trail. */
export const GET: RequestHandler = certificateFor('rep');
