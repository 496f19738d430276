import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { parseHost } from '@portico/contract/host';
import { asHostname, defaultHosts, hostFieldCount, HttpRefusal, portOfHost, type HostRule } from '@portico/platform/http';

// What the control port refuses of a request before anything else reads
// it: a Host it does not answer for, and text the database cannot hold.

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The names the control port answers for: loopback's, the address it
 * listens on (with a wildcard, every address of this machine), and the
 * operator's (PORTICO_CONTROL_HOSTS). A page on any other name that a
 * DNS server points at this machine (DNS rebinding) reaches the port as
 * its own origin, with its own name in Host: that is refused.
 */
export function controlHostRules(listenHost: string, extra: readonly HostRule[] = []): HostRule[] {
  const bare = listenHost.replace(/^\[(.*)\]$/, '$1');
  const wildcard = bare === '' || bare === '0.0.0.0' || (isIP(bare) === 6 && /^[0:]+$/.test(bare));
  const own = wildcard ? defaultHosts() : [{ hostname: asHostname(bare) }];
  return [...LOOPBACK_NAMES.map((hostname) => ({ hostname })), ...own, ...extra];
}

/**
 * Throws 400 unless the request's one Host names a rule's name (and its
 * port, where the rule names one; a rule without a port matches any, the
 * name being what a rebinding page cannot choose).
 */
export function checkControlHost(rules: readonly HostRule[], req: IncomingMessage): void {
  // Two Host fields are no one host (Node keeps the first).
  const parsed = hostFieldCount(req) === 1 ? parseHost(req.headers.host) : undefined;
  const port = parsed && portOfHost(parsed);
  const known = parsed !== undefined && rules.some((rule) => rule.hostname === parsed.hostname && (rule.port === undefined || rule.port === port));
  if (!known) {
    const named = req.headers.host === undefined ? 'no Host' : `Host ${JSON.stringify(req.headers.host.slice(0, 100))}`;
    throw new HttpRefusal(400, `the control port answers only its own names (${named}): loopback's, PORTICO_CONTROL_HOST's and PORTICO_CONTROL_HOSTS'`);
  }
}

/** A NUL character, which no name, id or text of the API holds and the database refuses (as `%00` in the path or query). */
export function checkNoNul(req: IncomingMessage): void {
  if (/%00/.test(req.url ?? '')) throw new HttpRefusal(400, 'the path or query holds a NUL character (%00)');
}

/** JSON.parse's reviver that refuses a NUL character in any string of a body, a name included. */
export function refuseNulText(key: string, value: unknown): unknown {
  if (key.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000'))) throw new HttpRefusal(400, 'the body holds a NUL character (\\u0000)');
  return value;
}
