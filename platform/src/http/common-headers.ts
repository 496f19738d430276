/**
 * The headers every answer of both servers carries (the page server's four
 * ports and the control API), and those of an answer that is data, not a
 * page. The page's own policy (its CSP, preloads) is the page server's
 * (server/src/security-headers.ts); the nginx generator writes these too.
 */

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

/** A JSON document runs nothing and embeds nothing. */
export const DATA_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Headers of an answer that is data (config.json, every JSON answer of the page's port). */
export function dataHeaders(): Record<string, string> {
  return { ...COMMON_HEADERS, 'Content-Security-Policy': DATA_CSP };
}

/** What an answer that is data adds to COMMON_HEADERS (which the root plugin's onSend sets on every answer). */
export const DATA_OWN_HEADERS: Readonly<Record<string, string>> = { 'Content-Security-Policy': DATA_CSP };

/** What a short text answer adds to COMMON_HEADERS (which the root plugin's onSend sets on every answer). */
export const PLAIN_OWN_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': DATA_CSP,
  'X-Frame-Options': 'DENY',
  'Content-Type': 'text/plain; charset=utf-8',
  'Cache-Control': 'no-store',
};

/** Headers of an answer that is not a file: it runs, embeds and may be framed by nothing (written whole where Fastify is not: a client's error). */
export const PLAIN_HEADERS: Readonly<Record<string, string>> = { ...COMMON_HEADERS, ...PLAIN_OWN_HEADERS };

/**
 * Sent on every answer to a visitor on https (behind a TLS proxy the server
 * trusts, PORTICO_TRUST_PROXY=1 with `X-Forwarded-Proto: https`): the browser
 * then refuses plain http to this host for a year. Sub-domains are left to
 * the operator, who may serve other sites on them.
 */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/** The type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';
