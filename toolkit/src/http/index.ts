export { createJsonClient, DEFAULT_JSON_QUERY_HEADERS, type JsonClient, type JsonClientOptions } from './create-json-client';
export { createFormClient, DEFAULT_FORM_QUERY_HEADERS, type FormClientOptions } from './create-form-client';
export { MAX_QUERY_HEADER_LENGTH, type QueryHeader, type SearchSource } from './query-headers';
export { HTTP_TIMEOUT_MS } from './timeout';
