import type { AxiosInstance } from 'axios';

/** One request header whose value is read from a query parameter of the page URL. */
export interface QueryHeader {
  /** The request header to send, e.g. `X-App-Token`. */
  header: string;
  /** The page URL query parameter that carries its value, e.g. `token`. */
  param: string;
}

/** Where the query string comes from: a fixed string, or a function read at each request. */
export type SearchSource = string | (() => string);

/**
 * A query parameter is input anyone can write into a link. Longer values are
 * dropped rather than cut, so a header never carries half a token.
 */
export const MAX_QUERY_HEADER_LENGTH = 256;

// Printable ASCII only: CR and LF would let a link inject headers, other
// control characters are refused by browsers and by node's http module, and
// both throw on characters outside Latin-1, failing the whole request.
const SAFE_HEADER_VALUE = /^[\x20-\x7e]+$/;

// RFC 9110 `token`: what a header name may be made of.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The page's own query string; empty where there is no page (node, workers without location). */
export function pageSearch(): string {
  return globalThis.location?.search ?? '';
}

/**
 * Checks a mapping once, when a client is made, so a typo in a header name is
 * a clear error at start-up instead of a failed request later.
 */
export function checkQueryHeaders(mapping: readonly QueryHeader[], client: string): void {
  for (const { header, param } of mapping) {
    if (!HEADER_NAME.test(header)) throw new TypeError(`${client}: "${header}" is not a valid HTTP header name`);
    if (param === '') throw new TypeError(`${client}: the query parameter for header ${header} is empty`);
  }
}

/**
 * The headers to send for this query string. A parameter that is missing,
 * empty or only spaces, longer than MAX_QUERY_HEADER_LENGTH or holding
 * anything but printable ASCII (CR, LF, any control character) sends no
 * header at all. Spaces around a value are dropped, as HTTP drops them from
 * a header anyway.
 */
function headersFromQuery(mapping: readonly QueryHeader[], search: string): Record<string, string> {
  const params = new URLSearchParams(search);
  const headers: Record<string, string> = {};
  for (const { header, param } of mapping) {
    const value = params.get(param)?.replace(/^ +| +$/g, '');
    if (value && value.length <= MAX_QUERY_HEADER_LENGTH && SAFE_HEADER_VALUE.test(value)) {
      headers[header] = value;
    }
  }
  return headers;
}

function readSearch(source: SearchSource): string {
  return typeof source === 'function' ? source() : source;
}

/**
 * Adds the query-derived headers to every request of `instance`, read when
 * the request is made. A header the caller sets on the request itself wins.
 */
export function sendQueryHeaders(instance: AxiosInstance, mapping: readonly QueryHeader[], search: SearchSource): void {
  instance.interceptors.request.use((config) => {
    for (const [name, value] of Object.entries(headersFromQuery(mapping, readSearch(search)))) {
      config.headers.set(name, value, false);
    }
    return config;
  });
}
