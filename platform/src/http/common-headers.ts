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

/**
 * Sent with every response of every app, a script's and a stylesheet's too:
 * nosniff makes the browser refuse a script or stylesheet of the wrong type,
 * and the referrer policy of a module script governs its imports', that of
 * a stylesheet its url() fetches'.
 */
export const SUBRESOURCE_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

/**
 * What only a document reads: a browser takes a Permissions-Policy from the
 * answer that makes a document, and ignores it on a script or stylesheet,
 * whose code runs under its page's policy (the site starts no worker, whose
 * script could be one). 254 bytes an answer on HTTP/1.1.
 */
export const DOCUMENT_HEADERS: Readonly<Record<string, string>> = {
  'Permissions-Policy': DENIED_FEATURES.map((feature) => `${feature}=()`).join(', '),
};

/** Sent with every response of every app but a script or a stylesheet (commonHeadersFor). */
export const COMMON_HEADERS: Readonly<Record<string, string>> = { ...SUBRESOURCE_HEADERS, ...DOCUMENT_HEADERS };

/** A type the browser only ever runs or applies inside a document, never opens as one. */
const SUBRESOURCE_TYPE = /^(text\/javascript|application\/javascript|text\/css)\s*(;|$)/i;

/**
 * The common headers of an answer of this Content-Type: without the
 * document's own (DOCUMENT_HEADERS) for a script or a stylesheet, which a
 * page fetches by the dozen; COMMON_HEADERS for anything else, a 304 (no
 * type) among them.
 */
export function commonHeadersFor(contentType: unknown): Readonly<Record<string, string>> {
  return typeof contentType === 'string' && SUBRESOURCE_TYPE.test(contentType) ? SUBRESOURCE_HEADERS : COMMON_HEADERS;
}

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
