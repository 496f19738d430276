import axios, { type AxiosInstance, type AxiosRequestConfig } from 'axios';
import { HTTP_TIMEOUT_MS } from './timeout';
import { checkQueryHeaders, pageSearch, sendQueryHeaders, type QueryHeader, type SearchSource } from './query-headers';

/**
 * Headers the JSON client copies from the page URL. The specification says
 * two such headers exist but not their names (point 7); these are Portico's
 * choice, replaceable through `queryHeaders`:
 *
 * - `X-App-Token`   <- `?token=`
 * - `X-App-Channel` <- `?channel=`
 */
export const DEFAULT_JSON_QUERY_HEADERS: readonly QueryHeader[] = [
  { header: 'X-App-Token', param: 'token' },
  { header: 'X-App-Channel', param: 'channel' },
];

export interface JsonClientOptions {
  /** Prefix of every request URL; none by default (the wider app's API base is empty). */
  baseURL?: string;
  /** Milliseconds before a request is abandoned; HTTP_TIMEOUT_MS (60 000) by default. */
  timeout?: number;
  /** Which headers are copied from which query parameters; DEFAULT_JSON_QUERY_HEADERS by default. */
  queryHeaders?: readonly QueryHeader[];
  /**
   * The query string to read them from. A function is called at every request,
   * so a URL changed by the history API is honoured; `window.location.search`
   * by default.
   */
  search?: SearchSource;
}

/**
 * An axios instance whose calls resolve to the response body rather than the
 * whole response. Interceptors and defaults stay reachable for callers.
 */
export interface JsonClient extends Omit<AxiosInstance, 'request' | 'get' | 'delete' | 'head' | 'options' | 'post' | 'put' | 'patch'> {
  request<T = unknown>(config: AxiosRequestConfig): Promise<T>;
  get<T = unknown>(url: string, config?: AxiosRequestConfig): Promise<T>;
  delete<T = unknown>(url: string, config?: AxiosRequestConfig): Promise<T>;
  head<T = unknown>(url: string, config?: AxiosRequestConfig): Promise<T>;
  options<T = unknown>(url: string, config?: AxiosRequestConfig): Promise<T>;
  post<T = unknown>(url: string, data?: unknown, config?: AxiosRequestConfig): Promise<T>;
  put<T = unknown>(url: string, data?: unknown, config?: AxiosRequestConfig): Promise<T>;
  patch<T = unknown>(url: string, data?: unknown, config?: AxiosRequestConfig): Promise<T>;
}

/**
 * The wider app's JSON client (specification, point 7): sends
 * `X-Requested-With: XMLHttpRequest` and two headers taken from the page URL,
 * resolves to the response body, and passes every error on unchanged.
 */
export function createJsonClient(options: JsonClientOptions = {}): JsonClient {
  const { baseURL, timeout = HTTP_TIMEOUT_MS, queryHeaders = DEFAULT_JSON_QUERY_HEADERS, search = pageSearch } = options;
  checkQueryHeaders(queryHeaders, 'createJsonClient');

  const instance = axios.create({
    baseURL,
    timeout,
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
  });
  sendQueryHeaders(instance, queryHeaders, search);
  // No rejection handler: an error reaches the caller as the very object axios
  // produced, with its response, status and request intact.
  instance.interceptors.response.use((response) => response.data);

  // The response interceptor above is what turns AxiosResponse<T> into T;
  // axios's types cannot follow a reshaping interceptor, so say it here once.
  return instance as unknown as JsonClient;
}
