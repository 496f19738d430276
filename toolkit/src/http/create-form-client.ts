import axios, { type AxiosInstance } from 'axios';
import { HTTP_TIMEOUT_MS } from './timeout';
import { checkQueryHeaders, pageSearch, sendQueryHeaders, type QueryHeader, type SearchSource } from './query-headers';

/**
 * Headers the form client copies from the page URL. The specification says
 * two such headers exist, different from the JSON client's, but not their
 * names (point 7); these are Portico's choice, replaceable through
 * `queryHeaders`:
 *
 * - `X-App-Version` <- `?version=`
 * - `X-Device-Id`   <- `?deviceId=`
 */
export const DEFAULT_FORM_QUERY_HEADERS: readonly QueryHeader[] = [
  { header: 'X-App-Version', param: 'version' },
  { header: 'X-Device-Id', param: 'deviceId' },
];

export interface FormClientOptions {
  /** Prefix of every request URL; none by default. */
  baseURL?: string;
  /** Milliseconds before a request is abandoned; HTTP_TIMEOUT_MS (60 000) by default. */
  timeout?: number;
  /** Which headers are copied from which query parameters; DEFAULT_FORM_QUERY_HEADERS by default. */
  queryHeaders?: readonly QueryHeader[];
  /** The query string to read them from, at every request; `window.location.search` by default. */
  search?: SearchSource;
}

/**
 * The wider app's form client (specification, point 7): request bodies go out
 * as application/x-www-form-urlencoded (axios encodes a plain object or a
 * URLSearchParams), with two headers taken from the page URL. It resolves to
 * the full axios response, since the specification reduces only the JSON
 * client's responses, and passes every error on unchanged.
 */
export function createFormClient(options: FormClientOptions = {}): AxiosInstance {
  const { baseURL, timeout = HTTP_TIMEOUT_MS, queryHeaders = DEFAULT_FORM_QUERY_HEADERS, search = pageSearch } = options;
  checkQueryHeaders(queryHeaders, 'createFormClient');

  const instance = axios.create({
    baseURL,
    timeout,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  sendQueryHeaders(instance, queryHeaders, search);
  return instance;
}
