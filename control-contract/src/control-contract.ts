import { z } from 'zod';
import { apiRoute } from './api-route';
import { normalisedManifestUrl } from './manifest-url';
import { MESSAGE_ACCESS_ACTIONS, messagesRoutes } from './messages-contract';
import { RELEASE_POLICIES } from './release-policy';
import {
  AUDIT_ACTIONS,
  auditEntrySchema,
  configProblemSchema,
  DEFAULT_AUDIT_LIMIT,
  DEFAULT_HEALTH_WINDOW_HOURS,
  listedReleaseSchema,
  MAX_AUDIT_LIMIT,
  MAX_HEALTH_WINDOW_HOURS,
  MAX_PREVIEW_SECONDS,
  MIN_PREVIEW_SECONDS,
  note,
  PREVIEW_SECONDS_RANGE,
  releaseId,
  scopeSchema,
  sectionParams,
  sectionEntrySchema,
  sectionSchema,
  sectionSwitchSchema,
  shownCanarySchema,
  shownReleaseSchema,
  shownSectionSchema,
  wholeQuery,
} from './control-shapes';

// The control API's contract, declared once (docs/releases.md, "The control
// API"): each route's method and path, the zod schemas of what it takes and
// what it answers, grouped by area. The control API's routes
// (@portico/releases) are registered from it, and the one client
// (./api-client.ts) calls it for the console, `npm run release` and
// `npm run messages`. It needs neither Node nor Fastify, so a browser app can
// import it.

// ---------------------------------------------------------------------------
// The routes, by area. Within a path, the routes are in the order `Allow` names them.

export const releasesRoutes = {
  publish: apiRoute({
    method: 'POST',
    path: '/api/releases',
    body: z.strictObject({
      section: z.string(),
      // One spelling per URL from here on: the checks fetch it, the store keys releases by it.
      manifestUrl: z
        .url({ protocol: /^https?$/, error: 'manifestUrl must be an absolute http(s) URL' })
        .max(2048)
        .transform(normalisedManifestUrl),
      note,
    }),
    /** `republished`: the same URL with the same bytes was published before; this is that release, its note as first given. */
    answer: shownReleaseSchema.extend({ republished: z.literal(true).optional() }),
  }),
  list: apiRoute({ method: 'GET', path: '/api/releases', query: z.object({ section: z.string().optional() }), answer: z.array(listedReleaseSchema) }),
  preview: apiRoute({
    method: 'POST',
    path: '/api/releases/:id/preview',
    params: z.object({ id: z.string() }),
    body: z.strictObject({
      expiresIn: z.int(PREVIEW_SECONDS_RANGE).min(MIN_PREVIEW_SECONDS, PREVIEW_SECONDS_RANGE).max(MAX_PREVIEW_SECONDS, PREVIEW_SECONDS_RANGE).optional(),
    }),
    answer: z.object({ url: z.string(), expiresAt: z.string() }),
  }),
};

export const sectionsRoutes = {
  activate: apiRoute({
    method: 'POST',
    path: '/api/sections/:section/active',
    params: sectionParams,
    body: z.strictObject({ release: releaseId, note }),
    answer: sectionSwitchSchema,
  }),
  rollback: apiRoute({
    method: 'POST',
    path: '/api/sections/:section/rollback',
    params: sectionParams,
    body: z.strictObject({ release: releaseId.optional(), note }),
    answer: sectionSwitchSchema,
  }),
  /**
   * Adds a section (sections as data): its id, labels, origins, grant,
   * place and markets. The rules (id grammar, reserved words, labels,
   * markets) are the catalogue's, in @portico/contract/section-entries, each
   * refusal naming its field; here only the shapes.
   */
  add: apiRoute({
    method: 'POST',
    path: '/api/sections',
    body: z.strictObject({
      id: z.string().max(100),
      labels: z.record(z.string(), z.unknown()),
      origins: z.array(z.string().max(2048)),
      interactive: z.boolean().optional(),
      after: z.string().max(100).nullable().optional(),
      markets: z.array(z.string().max(10)).optional(),
      note,
    }),
    answer: sectionEntrySchema,
  }),
  /**
   * Changes what it names of a section: its labels, origins, grant
   * (`interactive`, whether its builds may run script in the visitor's
   * browser), place (`after`, null first), markets, hidden, release policy.
   */
  change: apiRoute({
    method: 'PATCH',
    path: '/api/sections/:section',
    params: sectionParams,
    body: z.strictObject({
      labels: z.record(z.string(), z.unknown()).optional(),
      origins: z.array(z.string().max(2048)).optional(),
      interactive: z.boolean().optional(),
      after: z.string().max(100).nullable().optional(),
      markets: z.array(z.string().max(10)).optional(),
      hidden: z.boolean().optional(),
      policy: z.enum(RELEASE_POLICIES).optional(),
      note,
    }),
    answer: sectionEntrySchema,
  }),
  /** Retires an added section: final (its id is never used again). */
  retire: apiRoute({
    method: 'DELETE',
    path: '/api/sections/:section',
    params: sectionParams,
    body: z.strictObject({ note }),
    answer: sectionEntrySchema,
  }),
  status: apiRoute({
    method: 'GET',
    path: '/api/sections',
    query: z.object({ hours: wholeQuery(MAX_HEALTH_WINDOW_HOURS, DEFAULT_HEALTH_WINDOW_HOURS) }),
    answer: z.partialRecord(sectionSchema, shownSectionSchema),
  }),
};

export const canariesRoutes = {
  // The ranges are the store's to check (one check for every caller); here only the types.
  start: apiRoute({
    method: 'POST',
    path: '/api/sections/:section/canary',
    params: sectionParams,
    body: z.strictObject({
      release: releaseId,
      percent: z.number(),
      minVisits: z.number().optional(),
      maxFailureDelta: z.number().optional(),
      maxSlowdown: z.number().optional(),
      promoteAfterVisits: z.number().nullable().optional(),
      minNetworks: z.number().optional(),
      maxNetworkShare: z.number().optional(),
      note,
    }),
    answer: shownSectionSchema,
  }),
  promote: apiRoute({
    method: 'POST',
    path: '/api/sections/:section/canary/promote',
    params: sectionParams,
    body: z.strictObject({ note }),
    answer: shownSectionSchema,
  }),
  abort: apiRoute({
    method: 'DELETE',
    path: '/api/sections/:section/canary',
    params: sectionParams,
    body: z.strictObject({ note }),
    answer: shownSectionSchema,
  }),
};

/** A query's instant: an ISO 8601 date or time, as a Date. */
const instantQuery = z
  .string()
  .refine((text) => !Number.isNaN(new Date(text).getTime()), 'is not a date')
  .transform((text) => new Date(text))
  .optional();

/** The audit's filters, the same for a page (`GET /api/audit`) and its CSV (`GET /api/audit.csv`). */
export const auditQuerySchema = z.object({
  section: z.string().optional(),
  /** A token's name (the actor), exactly. */
  actor: z.string().max(64).optional(),
  action: z.enum([...AUDIT_ACTIONS, ...MESSAGE_ACCESS_ACTIONS], 'is not an audit action').optional(),
  /** Entries at or after this instant. */
  since: instantQuery,
  /** Entries before this instant. */
  until: instantQuery,
  limit: wholeQuery(MAX_AUDIT_LIMIT, DEFAULT_AUDIT_LIMIT),
  /** The next page: the entries older than this cursor (the last entry's `cursor` of the page before). */
  before: z.string().max(100).optional(),
});

export const auditRoutes = {
  list: apiRoute({ method: 'GET', path: '/api/audit', query: auditQuerySchema, answer: z.array(auditEntrySchema) }),
};

/**
 * The audit as CSV (text/csv, a download), with the page's filters and no
 * page: every entry they match up to MAX_AUDIT_LIMIT. Not JSON, so not an
 * apiRoute: the console links to it (`AUDIT_CSV_PATH?section=…`).
 */
export const AUDIT_CSV_PATH = '/api/audit.csv';

/** A live token as the tokens' list shows it: never its secret. */
const listedTokenSchema = z.object({
  name: z.string(),
  section: sectionSchema.nullable(),
  scopes: z.array(scopeSchema),
  createdAt: z.string(),
  createdBy: z.string(),
  /** The install's owner token (every scope, written to the data folder): revoking it is named as such in the console. */
  owner: z.boolean().optional(),
});

export const tokensRoutes = {
  list: apiRoute({ method: 'GET', path: '/api/tokens', answer: z.array(listedTokenSchema) }),
  create: apiRoute({
    method: 'POST',
    path: '/api/tokens',
    body: z.strictObject({ name: z.string().min(1).max(64), section: z.string().nullable().optional(), scopes: z.array(scopeSchema).min(1).optional() }),
    answer: z.object({ name: z.string(), section: sectionSchema.nullable(), scopes: z.array(scopeSchema), token: z.string() }),
  }),
  revoke: apiRoute({
    method: 'DELETE',
    path: '/api/tokens/:name',
    params: z.object({ name: z.string() }),
    answer: z.object({ name: z.string(), revoked: z.literal(true) }),
  }),
};

export const configRoutes = {
  report: apiRoute({
    method: 'GET',
    path: '/api/config',
    answer: z.object({ problems: z.array(configProblemSchema), warnings: z.array(configProblemSchema) }),
  }),
};

// ---------------------------------------------------------------------------
// The operator console's areas (docs/console.md): its sessions, what its
// screens read beside the routes above, and its alerts.

/** Who a session (or a token) is: its token's name and scopes, and the one section it acts on, if one. */
const actorSchema = z.object({ name: z.string(), scopes: z.array(scopeSchema), section: sectionSchema.optional() });

/** A console session: who, the anti-forgery value every request sends as X-Portico-CSRF (CSRF_HEADER), and when it ends. */
export const sessionSchema = z.object({
  actor: actorSchema,
  csrf: z.string(),
  /** ISO 8601: the session ends here unless a request comes before (each request moves it on). */
  idleExpiresAt: z.string(),
  /** ISO 8601: the session ends here whatever happens. */
  expiresAt: z.string(),
});

/** The session cookie's name. */
export const SESSION_COOKIE = 'portico_console';
/** A session ends after this long without a request… */
export const SESSION_IDLE_SECONDS = 30 * 60;
/** …and this long after its sign-in, whatever happens. */
export const SESSION_ABSOLUTE_SECONDS = 12 * 60 * 60;

export const sessionRoutes = {
  /** Sign-in: the token once, answered with the session cookie (Set-Cookie) and the session. */
  create: apiRoute({ method: 'POST', path: '/api/session', body: z.strictObject({ token: z.string().min(1).max(200) }), answer: sessionSchema }),
  /** Who am I: the session, asked with its CSRF value like every other request (a cookie alone is no session). */
  show: apiRoute({ method: 'GET', path: '/api/session', answer: sessionSchema }),
  /** Sign-out, on every server. */
  delete: apiRoute({ method: 'DELETE', path: '/api/session', answer: z.object({ signedOut: z.literal(true) }) }),
};

/**
 * `GET /api/events`: Server-Sent Events (text/event-stream), one `change`
 * event, whose data is a ConsoleEvent's JSON, whenever something the
 * console shows changes on any server; the console refetches what it names.
 * Not JSON, so not an apiRoute.
 */
export const EVENTS_PATH = '/api/events';
export const CONSOLE_EVENT_KINDS = ['sections', 'releases', 'health', 'audit', 'tokens', 'servers', 'messages', 'alerts'] as const;
export const consoleEventSchema = z.object({ kind: z.enum(CONSOLE_EVENT_KINDS), section: sectionSchema.optional() });
export type ConsoleEvent = z.infer<typeof consoleEventSchema>;

/** A server on the database, from its heartbeat. */
const serverSchema = z.object({
  id: z.string(),
  host: z.string(),
  port: z.number(),
  pid: z.number(),
  startedAt: z.string(),
  /** The release ids it serves (its sections' active and candidate releases). */
  releases: z.array(z.string()),
  lastSeenAt: z.string(),
});

export const serversRoutes = {
  list: apiRoute({ method: 'GET', path: '/api/servers', answer: z.array(serverSchema) }),
};

/** One hour of a release's health; `hour` is its start (ISO 8601). */
export const healthPointSchema = z.object({
  hour: z.string(),
  visits: z.number(),
  failures: z.number(),
  failureRate: z.number(),
  lcpP75: z.number().nullable(),
  inpP75: z.number().nullable(),
  clsP75: z.number().nullable(),
});

/** One release's hourly health: the hours with visits, oldest first. */
const releaseSeriesSchema = z.object({ release: z.string(), state: z.enum(['active', 'candidate', 'previous']), points: z.array(healthPointSchema) });

export const healthSeriesRoutes = {
  series: apiRoute({
    method: 'GET',
    path: '/api/sections/:section/health/series',
    params: sectionParams,
    query: z.object({ hours: wholeQuery(MAX_HEALTH_WINDOW_HOURS, DEFAULT_HEALTH_WINDOW_HOURS) }),
    answer: z.object({
      section: sectionSchema,
      /** ISO 8601: the window's first hour. */
      since: z.string(),
      /** The releases in view (active, candidate, previous), each over the window. */
      releases: z.array(releaseSeriesSchema),
      /** A running canary: its thresholds, and both releases' hours since it started. */
      canary: shownCanarySchema.extend({ releases: z.array(releaseSeriesSchema) }).optional(),
    }),
  }),
};

/** Where the alerts go and when an active release's failure rate raises one; null: none. */
const alertSettingsSchema = z.object({
  webhookUrl: z.string().nullable(),
  email: z.string().nullable(),
  /** A failure rate (0 to 1) that, held for an hour by an active release without a canary, raises an alert. */
  failureRateThreshold: z.number().nullable(),
});

/** The settings, and what the answering server can send: a webhook needs PORTICO_WEBHOOK_SECRET to be signed, an e-mail PORTICO_SMTP_URL. */
export const alertsAnswerSchema = alertSettingsSchema.extend({
  canSend: z.object({ webhook: z.boolean(), mail: z.boolean() }).optional(),
});

/** A test alert's outcome on each channel the settings name (none named: an empty list). */
const alertTestSchema = z.object({
  outcomes: z.array(z.object({ channel: z.enum(['webhook', 'mail']), sent: z.boolean(), detail: z.string() })),
});

export const alertsRoutes = {
  show: apiRoute({ method: 'GET', path: '/api/alerts', answer: alertsAnswerSchema }),
  /** Sends a test alert now to every channel the settings name, and answers each one's outcome; audited (`alerts`). */
  test: apiRoute({ method: 'POST', path: '/api/alerts/test', body: z.strictObject({}), answer: alertTestSchema }),
  /** Changes what it names (null clears it), keeps the rest. */
  set: apiRoute({
    method: 'PUT',
    path: '/api/alerts',
    body: z.strictObject({
      webhookUrl: z
        .url({ protocol: /^https?$/, error: 'webhookUrl must be an absolute http(s) URL' })
        .max(2048)
        .nullable()
        .optional(),
      email: z.email('email must be an e-mail address').max(254).nullable().optional(),
      failureRateThreshold: z.number().gt(0, 'failureRateThreshold is above 0').max(1, 'failureRateThreshold is at most 1').nullable().optional(),
    }),
    answer: alertsAnswerSchema,
  }),
};

/** The whole control API, by area. */
export const CONTROL_API = {
  releases: releasesRoutes,
  sections: sectionsRoutes,
  canaries: canariesRoutes,
  audit: auditRoutes,
  tokens: tokensRoutes,
  config: configRoutes,
  messages: messagesRoutes,
  session: sessionRoutes,
  servers: serversRoutes,
  health: healthSeriesRoutes,
  alerts: alertsRoutes,
};
