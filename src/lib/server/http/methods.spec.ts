import { describe, expect, it } from 'vitest';
// The property tests' reading of the route tree (with the TypeScript parser): the same inventory.
import { discoverRoutes } from '../../../../tests/support/routes';
import { GET_ONLY_ROUTES, methodNotAccepted, notAcceptedResponse } from './methods';

describe('GET-only endpoints', () => {
	it('are every endpoint that exports GET and nothing else, and no other', () => {
		const { endpoints } = discoverRoutes();
		expect(endpoints.length).toBeGreaterThan(GET_ONLY_ROUTES.size);
		const getOnly = endpoints.filter((e) => e.methods.join() === 'GET').map((e) => e.id);
		expect(getOnly.toSorted()).toEqual([...GET_ONLY_ROUTES].toSorted());
	});

	it('say in the 405 what was sent and what the address answers', () => {
		expect(methodNotAccepted('POST', 'GET, HEAD')).toBe(
			'POST is not accepted at this address: it answers GET, HEAD.'
		);
		expect(methodNotAccepted('PUT', 'POST,OPTIONS')).toBe(
			'PUT is not accepted at this address: it answers POST, OPTIONS.'
		);
	});

	it('answer 405 in those words, with Allow', async () => {
		const res = notAcceptedResponse('DELETE', 'GET, HEAD');
		expect(res.status).toBe(405);
		expect(res.headers.get('allow')).toBe('GET, HEAD');
		expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
		expect(await res.text()).toBe('DELETE is not accepted at this address: it answers GET, HEAD.');
	});
});
