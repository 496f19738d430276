/**
 * The security headers of every Portico response, in one place: the Node
 * server sends them and the nginx configuration generator writes them, so
 * both deployments answer alike.
 */

/** `scheme://host[:port]` with nothing that could end a CSP source early. */
const SAFE_ORIGIN = /^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/;

/** The origin of an http(s) URL or origin, or undefined for anything else. */
export function originOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const { protocol, origin } = new URL(value);
    if (protocol !== 'http:' && protocol !== 'https:') return undefined;
    return SAFE_ORIGIN.test(origin) ? origin : undefined;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The origins a host page may load code from, per the config.json it is
 * given: each configured remote's, and each origin allowed for per-visit
 * overrides. Anything that is not a clean http(s) origin is left out, so a
 * bad config can only narrow the policy, never widen or break it.
 */
export function remoteOrigins(config: unknown): string[] {
  if (!isRecord(config)) return [];
  const remotes = isRecord(config.remotes) ? Object.values(config.remotes) : [];
  const allowed = Array.isArray(config.allowedRemoteOrigins) ? config.allowedRemoteOrigins : [];
  const origins = [...remotes, ...allowed].map(originOf).filter((origin): origin is string => origin !== undefined);
  return [...new Set(origins)];
}

/**
 * The host page's Content-Security-Policy. Scripts, styles (a remote's CSS
 * chunks come from its origin), images and fetches (manifests) may come from
 * the page's own origin and the remotes' origins only; nothing inline and no
 * eval: zod runs jitless, Module Federation loads remoteEntry.js as a script
 * file, React sets styles through the CSSOM.
 */
export function contentSecurityPolicy(origins: readonly string[]): string {
  const sources = ["'self'", ...origins].join(' ');
  return [
    "default-src 'self'",
    `script-src ${sources}`,
    `connect-src ${sources}`,
    `style-src ${sources}`,
    `img-src ${sources}`,
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** A JSON document runs nothing and embeds nothing. */
export const DATA_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Powerful features the site never uses, denied to it and to anything it embeds. */
export const DENIED_FEATURES = [
  'accelerometer',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
] as const;

/** Sent with every response of every app. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': DENIED_FEATURES.map((feature) => `${feature}=()`).join(', '),
};

/** Headers of an HTML page (index.html, the 404 page) that may load code from `origins`. */
export function pageHeaders(origins: readonly string[]): Record<string, string> {
  return {
    ...COMMON_HEADERS,
    'Content-Security-Policy': contentSecurityPolicy(origins),
    // For browsers that predate frame-ancestors.
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

/**
 * `Link` preloads of each configured section's mf-manifest.json. The browser
 * fetches them with the page, instead of after the scripts and config.json
 * that name them: the longest wait of a federated page is that staircase.
 */
export function manifestPreloads(config: unknown, search = ''): string | undefined {
  if (!isRecord(config) || !isRecord(config.remotes)) return undefined;
  // A section this visit loads from elsewhere (`?remote.contact=`) does not
  // need its configured manifest.
  const overridden = new URLSearchParams(search);
  const urls = Object.entries(config.remotes)
    .filter(([section]) => !overridden.has(`remote.${section}`))
    .map(([, url]) => url)
    .filter((url) => originOf(url) !== undefined)
    .map((url) => new URL(url as string).href);
  if (urls.length === 0) return undefined;
  return urls.map((url) => `<${url}>; rel=preload; as=fetch; crossorigin=anonymous`).join(', ');
}

/** Headers of the host's page for the config.json it will be given, at this address. */
export function hostPageHeaders(config: unknown, search = ''): Record<string, string> {
  const preloads = manifestPreloads(config, search);
  return { ...pageHeaders(remoteOrigins(config)), ...(preloads ? { Link: preloads } : {}) };
}

/** Headers of config.json. */
export function dataHeaders(): Record<string, string> {
  return { ...COMMON_HEADERS, 'Content-Security-Policy': DATA_CSP };
}

/**
 * Headers of a remote's files: any page may load them, with CORS, because the
 * host loads scripts with `integrity`, which the browser checks only on a CORS
 * response.
 */
export const CROSS_ORIGIN_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

/**
 * Sent on every answer to a visitor on https (behind a TLS proxy the server
 * trusts, PORTICO_TRUST_PROXY=1 with `X-Forwarded-Proto: https`): the browser
 * then refuses plain http to this host for a year. Sub-domains are left to
 * the operator, who may serve other sites on them.
 */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';
