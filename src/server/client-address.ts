// Who a client is, for the per-client limits (login attempts, open connections): its address,
// with the spellings of one client folded together. An IPv4 peer of a dual-stack socket
// (`::ffff:203.0.113.9`) is that IPv4 address; an IPv6 peer is its /64, the block one host or
// one subscriber is given, since a host can pick a new address inside it for every request.

import { isIPv6 } from 'node:net';

export function clientAddress(remote: string | undefined): string {
  if (remote === undefined || remote === '') return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remote);
  if (mapped) return mapped[1]!;
  if (!isIPv6(remote)) return remote;
  return `${expandIPv6(remote).slice(0, 4).join(':')}::/64`;
}

/** The 8 groups of an IPv6 address, without leading zeros (`2001:db8::1` -> 2001,db8,0,...,1). */
function expandIPv6(address: string): string[] {
  const [head, tail] = address.split('%')[0]!.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((g) => (parseInt(g, 16) || 0).toString(16));
}
