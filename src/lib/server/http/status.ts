import type { Handle } from '@sveltejs/kit';

/**
 * A page that renders fully but answers for something that isn't there (a verify reference with
 * no signing on record) says so in its status, for a link checker or a monitor, while a person
 * still gets the page and its form. Kit lets a load set the status only by throwing `error`,
 * which would trade the page for the error page.
 */
const statuses = new WeakMap<Request, number>();

/** Answers this request's page with `status` instead of 200. */
export function answerPageWith(request: Request, status: number): void {
	statuses.set(request, status);
}

export const pageStatus: Handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	const status = statuses.get(event.request);
	// A client-side navigation's data request stays 200: kit reads a 404 there as a failure. A
	// form's answer (an upload checked on that page) is about what was sent, not the address.
	if (
		status === undefined ||
		event.isDataRequest ||
		event.request.method !== 'GET' ||
		response.status !== 200
	) {
		return response;
	}
	return new Response(response.body, { status, headers: response.headers });
};
