import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { LRUCache } from 'lru-cache';
import { parseHost } from '@portico/contract/host';
import { portOfHost, type HostRule } from './host-rules';

/** Who asked, and for which address, as the visitor's browser sees it. */
export interface Visitor {
  /** `http://localhost:8080`: the page's origin for this visitor; undefined without a usable host. */
  origin: string | undefined;
  /** `localhost:8080`, lower-case, as named by Host (or X-Forwarded-Host behind a trusted proxy). */
  host: string | undefined;
  /** `localhost`, `127.0.0.1`, `[::1]`: the host without its port. */
  hostname: string | undefined;
  protocol: 'http' | 'https';
  /** The client's IP address (X-Forwarded-For's nearest entry behind a trusted proxy). */
  address: string | undefined;
}

export interface VisitorOptions {
  /**
   * The server sits behind one proxy it trusts (PORTICO_TRUST_PROXY=1), which
   * sets X-Forwarded-Host, -Proto and -For. Without it those headers are
   * ignored: anyone can send them.
   */
  trustProxy: boolean;
}

/**
 * The value a proxy we trust added. A proxy appends to (or replaces) these
 * headers, so the last entry is its own and anything before it is the
 * client's word.
 */
function lastForwarded(value: string | string[] | undefined): string | undefined {
  const joined = Array.isArray(value) ? value.join(',') : value;
  const last = joined?.split(',').at(-1)?.trim();
  return last === '' ? undefined : last;
}

/**
 * The visitor of a request: the origin their browser is on, the host name
 * they used, the scheme and their address. Behind a trusted proxy these come
 * from its X-Forwarded-* headers; otherwise from the request itself. A
 * Fastify route reads it once per request as `request.visitor` (the root
 * plugin's decoration, root-plugin.ts); this is for code given a bare
 * request (the messages' endpoint, the benches).
 */
export function visitorOf(req: IncomingMessage, options: VisitorOptions): Visitor {
  const forwardedProto = options.trustProxy ? lastForwarded(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const encrypted = 'encrypted' in req.socket && req.socket.encrypted === true;
  const protocol = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : encrypted ? 'https' : 'http';

  const forwardedHost = options.trustProxy ? lastForwarded(req.headers['x-forwarded-host']) : undefined;
  const parsed = parseHost(forwardedHost ?? req.headers.host);
  const origin = parsed ? originFor(`${protocol}://${parsed.host}`) : undefined;

  const forwardedFor = options.trustProxy ? lastForwarded(req.headers['x-forwarded-for']) : undefined;
  const address = forwardedFor !== undefined && isIP(forwardedFor) !== 0 ? forwardedFor : req.socket.remoteAddress;

  return { origin, host: parsed?.host, hostname: parsed?.hostname, protocol, address };
}

/**
 * The origins made of a scheme and a Host, by URL: a URL parse per request
 * was a tenth of a `/config.json`'s CPU (bench:server). Few in use (the
 * hosts a server answers for), bounded, since clients choose their Host.
 */
const origins = new LRUCache<string, string>({ max: 256 });

function originFor(url: string): string {
  let origin = origins.get(url);
  if (origin === undefined) {
    // The URL parser drops the scheme's default port: https://a.example:443 is https://a.example.
    origin = new URL(url).origin;
    origins.set(url, origin);
  }
  return origin;
}

/**
 * Whether the visitor's page is a secure context, as browsers judge an
 * origin "potentially trustworthy": HTTPS, or a loopback host (`localhost`,
 * a name under `.localhost`, 127.0.0.0/8, `[::1]`). Only there do browsers
 * give a page what some headers carry (Server-Timing's entries).
 */
export function isSecureContext(visitor: Visitor): boolean {
  if (visitor.protocol === 'https') return true;
  const name = visitor.hostname;
  if (name === undefined) return false;
  return name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || (isIP(name) === 4 && name.startsWith('127.'));
}

const DEFAULT_PORTS = { http: 80, https: 443 } as const;

/**
 * Whether the server answers for the host a visitor named, port included:
 * the page's canonical URL, `og:url`, robots.txt, the sitemap and the
 * default config.json are made from it, and must not name a port the site
 * is not served on.
 *
 * A rule with a port matches that port only (the port a visitor uses when a
 * proxy or a port mapping sits in front). A rule without one matches the
 * port the request came in on (`localPort`), and, behind a trusted proxy,
 * also the scheme's default port (a visitor on `https://www.portico.example`
 * reaches the proxy on 443, not the server's port). A Host without a port
 * names the scheme's default port.
 */
export function hostAllowed(
  rules: readonly HostRule[],
  visitor: Pick<Visitor, 'host' | 'hostname' | 'protocol'>,
  context: { localPort: number | undefined; trustProxy: boolean },
): boolean {
  if (visitor.host === undefined || visitor.hostname === undefined) return false;
  const port = portOfHost({ host: visitor.host, hostname: visitor.hostname }) ?? DEFAULT_PORTS[visitor.protocol];
  return rules.some((rule) => {
    if (rule.hostname !== visitor.hostname) return false;
    if (rule.port !== undefined) return port === rule.port;
    return port === context.localPort || (context.trustProxy && port === DEFAULT_PORTS[visitor.protocol]);
  });
}
