// The port table and the config answer live in shared-config (the build needs
// them too); the server's callers keep importing them from here.
export { APP_DIRS, APP_NAMES, basePort, DEFAULT_PORT, portOf, type AppName } from '@portico/shared-config/contract';
export { answerConfig, DEFAULT_CONFIG_PATH, requestHostname } from '@portico/shared-config/node-config';
export { NOT_FOUND_PAGE, StartError, startPortico, type PorticoServerOptions, type RunningPortico } from './portico-server';
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
