import { describe, expect, it } from 'vitest';
import { limitAddress } from './address';

describe('who a per-address limit counts', () => {
	it('is an IPv4 address itself, mapped into IPv6 or not', () => {
		expect(limitAddress('203.0.113.9')).toBe('203.0.113.9');
		expect(limitAddress('::ffff:203.0.113.9')).toBe('203.0.113.9');
	});

	it('is the /64 of an IPv6 address, however it is written', () => {
		const one = limitAddress('2001:db8:1:2:aaaa::1');
		expect(one).toBe('2001:db8:1:2::/64');
		expect(limitAddress('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe(one);
		expect(limitAddress('2001:db8:1:3::1')).not.toBe(one);
	});

	it('is "unknown" for no address, or one that is not', () => {
		expect(limitAddress(null)).toBe('unknown');
		expect(limitAddress('not an address')).toBe('unknown');
	});
});
