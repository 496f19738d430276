import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The unit a client is counted by, for the contact rate limit and the
 * server's connection cap: an IPv4 address on its own, an IPv6 address by
 * its /64 (`2001:db8:1:2::/64`).
 *
 * IPv4 is not grouped: carrier-grade NAT puts many phones behind one address
 * in India and Indonesia, and a /24 would put whole neighbourhoods in one
 * budget. IPv6 is: one subscriber or host is routinely given a whole /64 and
 * may use any of its 2^64 addresses, so counting addresses would give it
 * 2^64 budgets. An IPv4-mapped IPv6 address (`::ffff:203.0.113.7`, what a
 * dual-stack socket reports) is the IPv4 address it carries. Anything that
 * is not an IP address (`unknown`) is its own unit.
 */
export function clientNetwork(address: string): string {
  if (isIP(address) === 0) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...prefix, 0, 0, 0, 0]).toString()}/64`;
}
