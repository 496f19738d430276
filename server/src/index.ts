// The server's own API. The port table is @portico/contract's, the config
// answer @portico/config-server/config-answer's: each name has one import path.
export { applyTimeouts, ConnectionCap, DEFAULT_CLIENT_LIMITS, TIMEOUT_CHECK_MS, type ClientLimits } from './client-limits';
export { CRAWLER_PATHS, robotsTxt, sitemapXml } from './crawler-files';
export { answerFailure, guardRoutes, rawRoute, type RawHandler } from './guard';
export { answerPlain, PLAIN_HEADERS, sendPlain } from './plain-answer';
export { appServer, type AppServer, type AppServerOptions } from './http/app-server';
export { hostAllowed, parseHostRule, visitorOf, type HostRule, type Visitor, type VisitorOptions } from './request-origin';
export { API_PREFIX, NOT_FOUND_PAGE, StartError, startPortico, WARM_RELEASE_WITHIN_MS, type PorticoServerOptions, type RunningPortico } from './portico-server';
export {
  COMMON_HEADERS,
  contentSecurityPolicy,
  CROSS_ORIGIN_HEADERS,
  DATA_CSP,
  dataHeaders,
  hostPageHeaders,
  manifestPreloads,
  originOf,
  pageHeaders,
  remoteOrigins,
  STRICT_TRANSPORT_SECURITY,
} from './security-headers';
export {
  builtPath,
  CACHE_IMMUTABLE,
  CACHE_REVALIDATE,
  cacheControlFor,
  HASHED_FILE,
  realFileIn,
  requestTarget,
  staticFiles,
  type Handler,
  type RequestTarget,
} from './static-files';
export { SECTION_WORKER_PATH, SHELL_WORKER_PATH, SSR_LIMITS } from './ssr/render-limits';
export { type RenderWorkerState } from './ssr/server-rendering';
export type { RenderingStage, StagePage, StagePart, StageSources } from './ssr/rendering-stage';
export type { SectionResult } from './ssr/section-stage';
export { answerPage, type EncodedPage } from './ssr/page-answer';
export { COMPRESSION_LANES, PageCache } from './ssr/page-cache';
export { PageCosts } from './ssr/page-budget';
export { treeRssKb } from './ssr/worker-process';
export { withReleases, type PreviewVisit, type ReleaseFeed } from './served-releases';
export {
  BEACON_FLUSH_MS,
  BEACON_REPORTS_PER_NETWORK,
  BEACON_WINDOW_MS,
  beaconEndpoint,
  DEFAULT_BEACON_LIMITS,
  type BeaconEndpoint,
  type BeaconEndpointOptions,
  type BeaconLimits,
} from './beacon/beacon-endpoint';
