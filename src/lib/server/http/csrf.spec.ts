import { describe, expect, it } from 'vitest';
import { isForeignFormPost } from './csrf';

const ORIGIN = 'https://sign.example.com';
const post = (headers: Record<string, string>, method = 'POST') =>
	new Request(`${ORIGIN}/sign/terms`, {
		method,
		headers,
		body: method === 'GET' ? undefined : 'a=1'
	});
const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe('form posts from our own pages only', () => {
	it('accepts our origin', () => {
		expect(isForeignFormPost(post({ ...form, origin: ORIGIN }), ORIGIN)).toBe(false);
	});

	it('accepts a null origin the browser marks same-origin (no-referrer policy)', () => {
		expect(
			isForeignFormPost(post({ ...form, origin: 'null', 'sec-fetch-site': 'same-origin' }), ORIGIN)
		).toBe(false);
	});

	it('refuses other origins, a bare null origin, and cross-site fetch metadata', () => {
		expect(isForeignFormPost(post({ ...form, origin: 'https://evil.example' }), ORIGIN)).toBe(true);
		expect(isForeignFormPost(post({ ...form, origin: 'null' }), ORIGIN)).toBe(true);
		expect(
			isForeignFormPost(post({ ...form, origin: 'null', 'sec-fetch-site': 'cross-site' }), ORIGIN)
		).toBe(true);
		expect(
			isForeignFormPost(
				post({ ...form, origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }),
				ORIGIN
			)
		).toBe(true);
		expect(
			isForeignFormPost(
				post({ 'content-type': 'multipart/form-data; boundary=x', origin: 'https://evil.example' }),
				ORIGIN
			)
		).toBe(true);
	});

	it('leaves requests with their own credential (a bearer key) to the endpoint', () => {
		expect(
			isForeignFormPost(post({ 'content-type': 'text/plain', authorization: 'Bearer k' }), ORIGIN)
		).toBe(false);
	});

	it('leaves JSON and safe methods to their own checks', () => {
		expect(
			isForeignFormPost(
				post({ 'content-type': 'application/json', origin: 'https://evil.example' }),
				ORIGIN
			)
		).toBe(false);
		expect(isForeignFormPost(post({ origin: 'https://evil.example' }, 'GET'), ORIGIN)).toBe(false);
	});
});
