import type { IncomingMessage } from 'node:http';

/** Where a request came from, as the endpoint needs it. */
export interface RequestOrigin {
  /** The page's own origin as the visitor's browser sees it, e.g. `https://lender.example`. */
  origin: string | undefined;
  /** The client's address, the rate limit's key. */
  address: string;
}

export type RequestOriginOf = (req: IncomingMessage) => RequestOrigin;

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(',')[0]?.trim() || undefined;
}

/** A `Host` value: a name or bracketed IPv6 address and an optional port, nothing else. */
const HOST = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/i;

function originFrom(scheme: string, host: string | undefined): string | undefined {
  if (!host || !HOST.test(host)) return undefined;
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/**
 * The contact endpoint's own, minimal reading of a request's origin and
 * address: the socket's address and `http://` + `Host`, or, with
 * `trustProxy` (PORTICO_TRUST_PROXY=1, behind nginx), the proxy's
 * `X-Forwarded-For`, `-Proto` and `-Host`. A forwarded header is never read
 * without it, since anyone can send one.
 */
export function contactRequestOrigin(options: { trustProxy: boolean }): RequestOriginOf {
  return (req) => {
    const socketAddress = req.socket.remoteAddress ?? 'unknown';
    if (!options.trustProxy) return { origin: originFrom('http', req.headers.host), address: socketAddress };
    // The proxy appends the address it saw last; earlier entries came from the client and prove nothing.
    const forwardedFor = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '')).split(',').map((hop) => hop.trim()).filter(Boolean);
    const scheme = firstValue(req.headers['x-forwarded-proto']) === 'https' ? 'https' : 'http';
    return {
      origin: originFrom(scheme, firstValue(req.headers['x-forwarded-host']) ?? req.headers.host),
      address: hops.at(-1) ?? socketAddress,
    };
  };
}
