export { APP_DIRS, APP_NAMES, basePort, portOf, type AppName } from './apps';
export { answerConfig, requestHostname } from './config-endpoint';
export { API_PREFIX, NOT_FOUND_PAGE, StartError, startPortico, type PorticoServerOptions, type RunningPortico } from './portico-server';
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
} from './security-headers';
export { CACHE_IMMUTABLE, CACHE_REVALIDATE, cacheControlFor, HASHED_FILE, safePath, staticFiles, type Handler } from './static-files';
