import type { SigningSession } from '$lib/server/signing/session';

// See https://svelte.dev/docs/kit/types#app.d.ts
declare global {
	namespace App {
		interface Error {
			message: string;
			errorId?: string;
		}
		interface Locals {
			/** The signing session of the cookie, when there is an open one. */
			signing: SigningSession | undefined;
		}
	}
}

export {};
