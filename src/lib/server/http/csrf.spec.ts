import { describe, expect, it, vi } from 'vitest';
import { foreignFormMessage, isForeignFormPost, logOtherOwnOrigin } from './csrf';

const ORIGIN = 'https://sign.example.com';
const API = '/api/v1/offices/1207/applications/50001/signing-links';
const post = (headers: Record<string, string>, method = 'POST', path = '/sign/terms') => {
	const request = new Request(`${ORIGIN}${path}`, {
		method,
		headers,
		body: method === 'GET' ? undefined : 'a=1'
	});
	return [request, new URL(request.url)] as const;
};
const foreign = (...args: Parameters<typeof post>) => isForeignFormPost(...post(...args));
const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe('form posts from our own pages only', () => {
	it('accepts our origin', () => {
		expect(foreign({ ...form, origin: ORIGIN })).toBe(false);
	});

	it('accepts a null origin the browser marks same-origin (no-referrer policy)', () => {
		expect(foreign({ ...form, origin: 'null', 'sec-fetch-site': 'same-origin' })).toBe(false);
	});

	it('refuses other origins, a bare null origin, and cross-site fetch metadata', () => {
		expect(foreign({ ...form, origin: 'https://evil.example' })).toBe(true);
		expect(foreign({ ...form, origin: 'null' })).toBe(true);
		expect(foreign({ ...form, origin: 'null', 'sec-fetch-site': 'cross-site' })).toBe(true);
		expect(
			foreign({ ...form, origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' })
		).toBe(true);
		expect(
			foreign({ 'content-type': 'multipart/form-data; boundary=x', origin: 'https://evil.example' })
		).toBe(true);
	});

	it('takes one loopback name for another on the same port, when the browser says same-origin', () => {
		const local = (origin: string, site?: string) =>
			isForeignFormPost(
				new Request('http://localhost:3000/rep/login', {
					method: 'POST',
					headers: { ...form, origin, ...(site ? { 'sec-fetch-site': site } : {}) },
					body: 'a=1'
				}),
				new URL('http://localhost:3000/rep/login')
			);
		expect(local('http://127.0.0.1:3000', 'same-origin')).toBe(false);
		expect(local('http://[::1]:3000', 'same-origin')).toBe(false);
		expect(local('http://127.0.0.1:3000')).toBe(true);
		expect(local('http://127.0.0.1:3000', 'cross-site')).toBe(true);
		expect(local('http://127.0.0.1:4000', 'same-origin')).toBe(true);
		expect(local('https://127.0.0.1:3000', 'same-origin')).toBe(true);
		expect(local('http://127.0.0.2:3000', 'same-origin')).toBe(true);
		expect(foreign({ ...form, origin: 'http://127.0.0.1', 'sec-fetch-site': 'same-origin' })).toBe(
			true
		);
	});

	it('treats SvelteKit’s binary form encoding as a form', () => {
		expect(
			foreign({
				'content-type': 'application/x-sveltekit-formdata',
				origin: 'https://evil.example'
			})
		).toBe(true);
	});

	it('does not let an Authorization header skip the check outside the operator API', () => {
		expect(foreign({ 'content-type': 'text/plain', authorization: 'Bearer k' })).toBe(true);
		expect(
			foreign(
				{ ...form, authorization: 'Bearer k', origin: 'https://evil.example' },
				'POST',
				'/s/x'
			)
		).toBe(true);
	});

	it('leaves the operator API’s paths, and only those, to their bearer key', () => {
		expect(foreign({ 'content-type': 'text/plain' }, 'POST', API)).toBe(false);
		expect(foreign({ ...form, origin: 'https://evil.example' }, 'POST', API)).toBe(false);
		expect(foreign({ ...form, origin: 'https://evil.example' }, 'POST', '/dev/reminders')).toBe(
			false
		);
		expect(foreign({ ...form, origin: 'https://evil.example' }, 'POST', `${API}/x`)).toBe(true);
		expect(foreign({ ...form, origin: 'https://evil.example' }, 'POST', '/api/v1/other')).toBe(
			true
		);
	});

	it('leaves JSON and safe methods to their own checks', () => {
		expect(foreign({ 'content-type': 'application/json', origin: 'https://evil.example' })).toBe(
			false
		);
		expect(foreign({ origin: 'https://evil.example' }, 'GET')).toBe(false);
	});

	it('names the portal’s address when the browser vouches for a page at another one', () => {
		const [request, url] = post({
			...form,
			origin: 'http://localhost:3000',
			'sec-fetch-site': 'same-origin'
		});
		expect(isForeignFormPost(request, url)).toBe(true);
		expect(foreignFormMessage(request, url)).toBe(
			"This form was sent from a page at http://localhost:3000, but this portal's address is https://sign.example.com, so it was refused. Open the portal at https://sign.example.com; if that address is wrong, its operator sets ORIGIN to the one people use."
		);
		// The operator is told once per address, in the log, which setting to mend.
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		try {
			logOtherOwnOrigin(request, url);
			logOtherOwnOrigin(request, url);
			logOtherOwnOrigin(...post({ ...form, origin: 'https://evil.example' }));
			logOtherOwnOrigin(
				...post({ ...form, origin: 'http://587-31-4926.example', 'sec-fetch-site': 'same-origin' })
			);
			logOtherOwnOrigin(
				...post({ ...form, origin: 'http://x/<b>', 'sec-fetch-site': 'same-origin' })
			);
			expect(warn.mock.calls.map(([line]) => line)).toEqual([
				"[origin] a form was refused: the browser said it was sent from this portal's own page at http://localhost:3000, but ORIGIN is https://sign.example.com. If this portal is served at http://localhost:3000 (a proxy's name, a mistyped setting), set ORIGIN to it; if not, someone else's program sent it, and nothing needs mending.",
				"[origin] a form was refused: the browser said it was sent from this portal's own page at http://[number].example, but ORIGIN is https://sign.example.com. If this portal is served at http://[number].example (a proxy's name, a mistyped setting), set ORIGIN to it; if not, someone else's program sent it, and nothing needs mending."
			]);
			// One not written as an origin is neither named nor shown back.
			expect(
				foreignFormMessage(
					...post({ ...form, origin: 'http://x/<b>', 'sec-fetch-site': 'same-origin' })
				)
			).toBe(
				'This form was sent from a page on another website, so it was refused and nothing was done.'
			);
		} finally {
			warn.mockRestore();
		}
		// A page elsewhere, as the browser tells it: the plain refusal, no address offered.
		for (const headers of [
			{ ...form, origin: 'https://evil.example' },
			{ ...form, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
			{ ...form, origin: 'null' }
		]) {
			expect(foreignFormMessage(...post(headers))).toBe(
				'This form was sent from a page on another website, so it was refused and nothing was done.'
			);
		}
		// Neither header at all (a program, an add-on that strips them): not "another website".
		expect(foreign(form)).toBe(true);
		expect(foreignFormMessage(...post(form))).toBe(
			'Browsers say which page a form was sent from; this one did not, so it was refused and nothing was done. Send it from the portal’s own page, in a browser without add-ons that remove that.'
		);
	});
});
