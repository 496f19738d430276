// The control API as its callers see it, browser-safe (no Node, no Fastify):
// each route's request and answer shapes, the words both the console and the
// release command say, and the one client the console, `npm run release` and
// `npm run messages` call it through. The control API (@portico/releases)
// registers its routes from the same declarations.
export { apiRoute, type AnswerIn, type AnswerOf, type ApiRoute } from './api-route';
export {
  apiClient,
  ApiAnswerMismatch,
  ApiRefusal,
  ApiUnreachable,
  CSRF_HEADER,
  pathOf,
  type ApiClient,
  type ApiClientOptions,
  type CallInput,
  type CallOptions,
} from './api-client';
export * from './control-contract';
export * from './control-shapes';
export { type SectionChangeFact } from './audit-facts';
export { DEFAULT_MESSAGES_LIMIT, MESSAGE_ACCESS_ACTIONS, messagesRoutes } from './messages-contract';
export { DEFAULT_RELEASE_POLICY, describePolicy, policyAllows, policyRefusal, RELEASE_POLICIES, type ReleasePolicy } from './release-policy';
export { normalisedManifestUrl } from './manifest-url';
export { deliverable, DELIVERABLE_EN, type DeliverableWords } from './deliverable';
