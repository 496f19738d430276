export { APP_DIRS, APP_NAMES, basePort, portOf, type AppName } from './apps';
export { answerConfig, jsonDepth, MAX_CONFIG_BYTES, MAX_CONFIG_DEPTH, requestHostname } from './config-endpoint';
export { answerClientError, guardRequests, type AsyncListener } from './guard';
export { answerPlain, PLAIN_HEADERS } from './plain-answer';
export { allowedHostnames, parseHost, trustProxyFrom, visitorOf, type Visitor, type VisitorOptions } from './request-origin';
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
