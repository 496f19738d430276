// The HTTP basics both servers (the page's four ports and the control API)
// are built on, with Fastify: the common headers, the JSON answers and
// refusals, the body reader, the listen wrapper, the client-error answer,
// and routes declared once with zod for the server and a typed client.
export { COMMON_HEADERS, DATA_CSP, dataHeaders, DENIED_FEATURES, JSON_TYPE, PLAIN_HEADERS } from './common-headers';
export { HttpRefusal, sendJson, sendRefusal } from './json-reply';
export { BODY_TIME_MS, DRAIN_AT_MOST, readBody, textBodyParser, type BodyLimits, type BodyResult } from './read-body';
export { closeNow, ListenError, listenOn, urlOf, type ListenOptions } from './listen';
export { answerClientError } from './client-error';
export { defaultHosts, parseHostRule, portOfHost, type HostRule } from './host-rules';
export {
  apiRoute,
  declared,
  jsonSerializerCompiler,
  refusalOf,
  routeSchema,
  zodValidatorCompiler,
  type AnswerIn,
  type AnswerOf,
  type ApiRoute,
  type ZodTypeProvider,
} from './typed-routes';
export {
  apiClient,
  CSRF_HEADER,
  ApiAnswerMismatch,
  ApiRefusal,
  ApiUnreachable,
  pathOf,
  type ApiClient,
  type ApiClientOptions,
  type CallInput,
  type CallOptions,
} from './api-client';
