import ipaddr from 'ipaddr.js';

/**
 * Who a per-address limit counts: an IPv4 address as it is (and as IPv4 when it came mapped into
 * IPv6), an IPv6 address by its /64, the least a network is given (RFC 6177): counted address by
 * address, one subscriber could try 2^64 times as often as the limit allows.
 */
export function limitAddress(ip: string | null): string {
	if (!ip || !ipaddr.isValid(ip)) return 'unknown';
	const address = ipaddr.process(ip);
	if (address.kind() === 'ipv4') return address.toString();
	const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
	return `${prefix.join(':')}::/64`;
}
