// The HTTP basics both servers (the page's four ports and the control API)
// are built on, with Fastify: the common headers, the JSON answers and
// refusals, the body reader, the listen wrapper, the client-error answer,
// and routes declared once with zod, registered on the server.
export {
  COMMON_HEADERS,
  commonHeadersFor,
  DATA_CSP,
  DATA_OWN_HEADERS,
  dataHeaders,
  DENIED_FEATURES,
  DOCUMENT_HEADERS,
  JSON_TYPE,
  PLAIN_HEADERS,
  PLAIN_OWN_HEADERS,
  STRICT_TRANSPORT_SECURITY,
  SUBRESOURCE_HEADERS,
} from './common-headers';
export { BODY_TIME_MS, DRAIN_AT_MOST, readBody, type BodyLimits, type BodyResult } from './read-body';
export { closeNow, ListenError, listenOn, urlOf, type ListenOptions } from './listen';
export { answerClientError } from './client-error';
export { asHostname, defaultHosts, hostFieldCount, parseHostRule, portOfHost, type HostRule } from './host-rules';
// The server's side of routes declared once with zod (@portico/control-contract's apiRoute).
export { declared, refusalOf, routeSchema, zodSchemaController, type ZodTypeProvider } from './typed-routes';
export { HttpRefusal, sendJson, sendPlain, sendRefusal } from './json-reply';
export { httpRoot, NotJson, stampAnswer, type HttpRootOptions, type RouteBody } from './root-plugin';
export { postGate, type GateWords, type PostGateOptions } from './post-gate';
export { hostAllowed, isSecureContext, visitorOf, type Visitor, type VisitorOptions } from './visitor';
export {
  answerRequestIds,
  currentRequestId,
  isSaneRequestId,
  newRequestId,
  REQUEST_ID_HEADER,
  requestIdOf,
  requestIdOptions,
  scopeRequests,
} from './request-id';
export { sendAnswer, writeAnswer, type Answer } from './answer';
