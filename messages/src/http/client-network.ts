import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** An address as ipaddr.js reads it, an IPv4-mapped IPv6 address as the IPv4 one it carries; undefined when it is no IP address. */
function parse(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  return isIP(address) === 0 ? undefined : ipaddr.process(address);
}

/** The first `hextets` groups of an IPv6 address, the rest zeros, as `2001:db8:1::/48`. */
function ipv6Prefix(address: ipaddr.IPv6, hextets: number): string {
  const parts = address.parts.slice(0, hextets);
  return `${new ipaddr.IPv6([...parts, ...Array<number>(8 - hextets).fill(0)]).toString()}/${hextets * 16}`;
}

/**
 * The unit a client is counted by, for the contact rate limit, the beacon's
 * per-client cap and the server's connection cap: an IPv4 address on its
 * own, an IPv6 address by its /64 (`2001:db8:1:2::/64`).
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
  const parsed = parse(address);
  if (!parsed) return address;
  return parsed.kind() === 'ipv4' ? parsed.toString() : ipv6Prefix(parsed as ipaddr.IPv6, 4);
}

/**
 * Over all the /64s of one IPv6 /48 (`clientBlock`), the per-client budgets
 * (the contact form's, the beacon's) allow this many clients' worth: one
 * customer's 65,536 /64s are not 65,536 budgets, and a carrier's or an
 * office's /48 of real people still gets ten times what one client may
 * (docs/decisions/health-and-canaries.md).
 */
export const CLIENTS_PER_BLOCK = 10;

/**
 * The block one holder controls, over which the per-client budgets get an
 * aggregate bound as well: an IPv6 address's /48 (`2001:db8:1::/48`), what
 * a home or cloud customer is routinely given (65,536 /64s, each a client of
 * its own). Undefined for IPv4 (one address is one budget already, and a
 * carrier's NAT pool must not share one) and for what is not an IP address.
 */
export function clientBlock(address: string): string | undefined {
  const parsed = parse(address);
  return parsed?.kind() === 'ipv6' ? ipv6Prefix(parsed as ipaddr.IPv6, 3) : undefined;
}

/**
 * The network a canary's judge counts a client by (distinct networks, the
 * share bound, the leave-one-out), whatever the rate limits count: an IPv6
 * address by its /48, an IPv4 address by its /24 (`203.0.113.0/24`). Coarse
 * on purpose: one subscriber holding a /48, or a /24 of a hosting provider,
 * is one network however many addresses it sends from, so it cannot pass
 * for the several networks a decision needs. Real visitors behind one
 * carrier's block count as one network too, which only makes the judge
 * wait for more networks (docs/health.md, "The threat model").
 */
export function canaryNetwork(address: string): string {
  const parsed = parse(address);
  if (!parsed) return address;
  if (parsed.kind() === 'ipv6') return ipv6Prefix(parsed as ipaddr.IPv6, 3);
  const [a, b, c] = (parsed as ipaddr.IPv4).octets;
  return `${a}.${b}.${c}.0/24`;
}
