// An API's routes declared once with zod, and the typed client that calls
// them: no Node and no Fastify at run time, so a browser app (the operator
// console) may import it as the commands do.
export { apiRoute, refusalOf, type AnswerIn, type AnswerOf, type ApiRoute } from './typed-routes';
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
export { HttpRefusal } from './json-reply';
