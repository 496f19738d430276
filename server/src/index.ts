// The server's API to the other packages (the deploy tools, the browser
// tests, the benchmarks): what they import, nothing more. The port table is
// @portico/contract's, the config answer @portico/config-server/config-answer's:
// each name has one import path.
export { answerFailure } from './guard';
export { NOT_FOUND_PAGE, startPortico, type PorticoServerOptions, type RunningPortico } from './portico-server';
export {
  COMMON_HEADERS,
  contentSecurityPolicy,
  CROSS_ORIGIN_HEADERS,
  DATA_CSP,
  dataHeaders,
  hostPageHeaders,
  pageHeaders,
  remoteOrigins,
  STRICT_TRANSPORT_SECURITY,
} from './security-headers';
export { CACHE_IMMUTABLE, CACHE_REVALIDATE, HASHED_FILE, requestTarget, staticFiles, type FileRequest } from './static-files';
export { answerPage, type EncodedPage } from './ssr/page-answer';
export { COMPRESSION_LANES, PageCache } from './ssr/page-cache';
export { PageCosts } from './ssr/page-budget';
export { treeRssKb } from './ssr/worker-process';
export { beaconEndpoint } from './beacon/beacon-endpoint';
