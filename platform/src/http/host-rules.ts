import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { parseHost } from '@portico/contract/host';

/**
 * A host the server answers for: a name (or address, IPv6 in brackets),
 * and the one port it is reached on when the operator named one.
 */
export interface HostRule {
  hostname: string;
  port?: number;
}

/** How a host name appears in a Host header: IPv6 addresses in brackets. */
export function asHostname(address: string): string {
  return isIP(address) === 6 ? `[${address.toLowerCase()}]` : address.toLowerCase();
}

/** The port a parsed `host[:port]` names, if any. */
export function portOfHost(parsed: { host: string; hostname: string }): number | undefined {
  return parsed.host.length > parsed.hostname.length ? Number(parsed.host.slice(parsed.hostname.length + 1)) : undefined;
}

/** A PORTICO_HOSTS (or PORTICO_CONTROL_HOSTS) entry: `name`, `name:port`, `[v6]`, `[v6]:port` or a bare IPv6 address; throws naming a bad one. */
export function parseHostRule(entry: string, setting = 'PORTICO_HOSTS'): HostRule {
  const trimmed = entry.trim();
  if (isIP(trimmed) === 6) return { hostname: asHostname(trimmed) };
  const parsed = parseHost(trimmed);
  const port = parsed && portOfHost(parsed);
  if (!parsed || port === 0) {
    throw new Error(`${setting}: "${entry}" is not a host name, an address or either with a port (www.portico.example, 192.0.2.7:8443, [2001:db8::1])`);
  }
  return port === undefined ? { hostname: parsed.hostname } : { hostname: parsed.hostname, port };
}

/**
 * The hosts answered without PORTICO_HOSTS: `localhost`, the loopback
 * addresses and every address of this machine's interfaces, so a phone on
 * the same network can use the machine's LAN address; none with a port.
 */
export function defaultHosts(): HostRule[] {
  const interfaces = Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    // A link-local IPv6 address needs a zone (`%eth0`), which a Host header cannot carry.
    .filter((info) => !info.address.includes('%'))
    .map((info) => asHostname(info.address));
  return [...new Set(['localhost', '127.0.0.1', '[::1]', ...interfaces])].map((hostname) => ({ hostname }));
}

/**
 * How many Host fields a request carries: a server must refuse more than one
 * (RFC 9112, 3.2), and Node keeps the first, so a second could name another
 * host than the one checked.
 */
export function hostFieldCount(req: Pick<IncomingMessage, 'rawHeaders'>): number {
  return req.rawHeaders.filter((name, index) => index % 2 === 0 && name.toLowerCase() === 'host').length;
}
