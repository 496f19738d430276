import { z } from 'zod';
import { FAILURE_CLASSES } from '@portico/contract/beacon';
import { SECTION_IDS } from '@portico/contract/sections';
import { MESSAGE_ACCESS_ACTIONS, messagesRoutes } from '@portico/messages/control-contract';
import { apiRoute } from '@portico/platform/api';
import { normalisedManifestUrl } from '../manifest-url';

// The control API's contract, declared once (docs/releases.md, "The control
// API"): each route's method and path, the zod schemas of what it takes and
// what it answers, grouped by area. The routes (./routes) are registered from
// it, the typed client (@portico/platform/api's apiClient) calls it, and
// `npm run release` and `npm run messages` read its answers through that
// client. It needs neither Node nor Fastify, so a browser app can import it.

// ---------------------------------------------------------------------------
// Constants the routes check and the commands' usage text quotes.

/** A request body past this is refused (413): the largest real one, a publish with a note, is well under 2 KB. */
export const CONTROL_BODY_LIMIT = 16 * 1024;

/** `GET /api/sections` shows each release's health over this many hours unless `?hours=` says otherwise. */
export const DEFAULT_HEALTH_WINDOW_HOURS = 24;
/** The longest health window asked for: the health kept by default (30 days). */
export const MAX_HEALTH_WINDOW_HOURS = 30 * 24;

/** `GET /api/audit` answers this many entries unless `?limit=` says otherwise, and at most MAX_AUDIT_LIMIT. */
export const DEFAULT_AUDIT_LIMIT = 100;
export const MAX_AUDIT_LIMIT = 10_000;

/** A preview link lasts this long unless its maker says otherwise: a working day and a night, for a review across time zones. */
export const DEFAULT_PREVIEW_SECONDS = 24 * 60 * 60;
/** The shortest a preview link may last: less is gone before it is opened. */
export const MIN_PREVIEW_SECONDS = 60;
/** The longest a preview link may last: a link is a capability, and one that never expires is a second production. */
export const MAX_PREVIEW_SECONDS = 30 * 24 * 60 * 60;
/** What a preview's lifetime may be, in the words of every refusal (the control API's, the command's). */
export const PREVIEW_SECONDS_RANGE = `a whole number of seconds from ${MIN_PREVIEW_SECONDS} (1 minute) to ${MAX_PREVIEW_SECONDS} (30 days)`;

/** A canary's thresholds when its start names none (docs/releases.md, "Canaries"). */
export const CANARY_DEFAULTS = { minVisits: 50, maxFailureDelta: 0.02, maxSlowdown: 0.25, promoteAfterVisits: null, minNetworks: 5, maxNetworkShare: 0.2 } as const;

// ---------------------------------------------------------------------------
// The shapes the answers are made of.

export const sectionSchema = z.enum(SECTION_IDS);

export const RELEASE_STATES = ['active', 'candidate', 'previous', 'available', 'broken'] as const;

/** What a token may do: every section's releases, the contact messages, or one section's releases. */
export const scopeSchema = z.union([z.literal('releases'), z.literal('messages'), z.templateLiteral(['section:', sectionSchema])], {
  error: 'a scope is releases, messages or section:<section>',
});

export const AUDIT_ACTIONS = ['publish', 'publish-refused', 'activate', 'rollback', 'preview', 'canary', 'promote', 'abort', 'auto-rollback', 'token', 'broken', 'set-aside', 'alerts'] as const;

/** One check a publish ran, in words. */
export const checkResultSchema = z.object({ name: z.string(), ok: z.boolean(), detail: z.string() });

/** An immutable, checked build of one section. */
export const releaseSchema = z.object({
  /** `<section>-<n>`: readable, typed on the command line. */
  id: z.string(),
  section: sectionSchema,
  manifestUrl: z.string(),
  /** `sha384-…` of the manifest's exact bytes, computed by the server. */
  integrity: z.string(),
  version: z.string(),
  buildId: z.string(),
  /** ISO 8601. */
  createdAt: z.string(),
  /** The publishing token's name. */
  createdBy: z.string(),
  note: z.string().nullable(),
});

/** When and why a release was found broken (or its build set aside on a server). */
export const brokenMarkSchema = z.object({ at: z.string(), detail: z.string() });
/** A release as the control API shows it: `broken` only when it is. */
export const shownReleaseSchema = releaseSchema.extend({ broken: brokenMarkSchema.optional() });
/** A release in a listing, with its state. */
export const listedReleaseSchema = shownReleaseSchema.extend({ state: z.enum(RELEASE_STATES) });
/** A section's release as its state shows it: also `setAside` when a server's supervisor gave up on its node build. */
export const stateReleaseSchema = shownReleaseSchema.extend({ setAside: brokenMarkSchema.optional() });

/** One release's health over a window (visits reported by pages that ran it). */
export const releaseHealthSchema = z.object({
  visits: z.number(),
  failures: z.number(),
  /** failures / visits; 0 with no visits. */
  failureRate: z.number(),
  failuresByClass: z.partialRecord(z.enum(FAILURE_CLASSES), z.number()),
  /** p75 of the visits that reported it; null when none did. */
  lcpP75: z.number().nullable(),
  inpP75: z.number().nullable(),
  clsP75: z.number().nullable(),
});

/** What the judge reads of a canary's release beside its health: its networks, and what the servers saw themselves. */
export const judgedSchema = z.object({ networks: z.number(), renderFailures: z.number(), setAside: z.number(), contactErrors: z.number(), broken: z.string().nullable() });

/** A running canary's thresholds, number and start. */
export const shownCanarySchema = z.object({
  id: z.number(),
  minVisits: z.number(),
  maxFailureDelta: z.number(),
  maxSlowdown: z.number(),
  promoteAfterVisits: z.number().nullable(),
  minNetworks: z.number(),
  maxNetworkShare: z.number(),
  startedAt: z.string(),
  startedBy: z.string(),
});

/** A section as `GET /api/sections` and the canary routes answer it (docs/releases.md). */
export const shownSectionSchema = z.object({
  active: stateReleaseSchema.nullable(),
  /** What a rollback without a release would make active; null: config.json's URL. */
  previous: shownReleaseSchema.nullable(),
  since: z.string().nullable(),
  by: z.string().nullable(),
  candidate: stateReleaseSchema.optional(),
  percent: z.number().optional(),
  canary: shownCanarySchema.optional(),
  health: z.record(z.string(), releaseHealthSchema),
  healthSince: z.string().optional(),
  /** Set instead of `healthSince` when the health could not be read (the change was made all the same). */
  healthError: z.string().optional(),
  judged: z.record(z.string(), judgedSchema).optional(),
  /** The section's URL in config.json. */
  configured: z.string().optional(),
});

/** The answer to an activation or a rollback: what the section serves now, and where a rollback would take it. */
export const sectionSwitchSchema = z.object({ section: sectionSchema, active: shownReleaseSchema.nullable(), previous: shownReleaseSchema.nullable() });

export const auditEntrySchema = z.object({
  at: z.string(),
  actor: z.string(),
  action: z.enum([...AUDIT_ACTIONS, ...MESSAGE_ACCESS_ACTIONS]),
  section: sectionSchema.nullable(),
  release: z.string().nullable(),
  /** The release active before, for an activation or a rollback. */
  from: z.string().nullable(),
  detail: z.string(),
  /** Where the next page starts (`?before=`): opaque. */
  cursor: z.string().optional(),
});

const configProblemSchema = z.object({ field: z.string(), message: z.string() });

/**
 * What every refusal answers: the reason in words, and what names the
 * fault (`field`; a publish's `checks`, and `origin` and `allowedOrigins`
 * for an origin it may not fetch from).
 */
export const refusalSchema = z.looseObject({
  error: z.string(),
  field: z.string().optional(),
  checks: z.array(checkResultSchema).optional(),
  origin: z.string().optional(),
  allowedOrigins: z.array(z.string()).optional(),
});

// ---------------------------------------------------------------------------
// The request bodies and queries; unknown keys in a body are refused, so a
// typo is an error, not ignored.

const note = z.string().max(1000, 'at most 1000 characters').optional();
const releaseId = z.string().min(1).max(100);
/** A query's whole number from 1 to `max`, `fallback` when absent, in the query's words (`hours must be …`). */
const wholeQuery = (max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((text, context) => {
      const value = text === undefined ? fallback : Number(text);
      if (Number.isInteger(value) && value >= 1 && value <= max) return value;
      context.addIssue({ code: 'custom', message: `must be a whole number from 1 to ${max}` });
      return z.NEVER;
    });
const sectionParams = z.object({ section: z.string() });

// ---------------------------------------------------------------------------
// The routes, by area. Within a path, the routes are in the order `Allow` names them.

export const releasesRoutes = {
  publish: apiRoute({
    method: 'POST',
    path: '/api/releases',
    body: z.strictObject({
      section: z.string(),
      // One spelling per URL from here on: the checks fetch it, the store keys releases by it.
      manifestUrl: z.url({ protocol: /^https?$/, error: 'manifestUrl must be an absolute http(s) URL' }).max(2048).transform(normalisedManifestUrl),
      note,
    }),
    answer: shownReleaseSchema,
  }),
  list: apiRoute({ method: 'GET', path: '/api/releases', query: z.object({ section: z.string().optional() }), answer: z.array(listedReleaseSchema) }),
  preview: apiRoute({
    method: 'POST',
    path: '/api/releases/:id/preview',
    params: z.object({ id: z.string() }),
    body: z.strictObject({ expiresIn: z.int(PREVIEW_SECONDS_RANGE).min(MIN_PREVIEW_SECONDS, PREVIEW_SECONDS_RANGE).max(MAX_PREVIEW_SECONDS, PREVIEW_SECONDS_RANGE).optional() }),
    answer: z.object({ url: z.string(), expiresAt: z.string() }),
  }),
};

export const sectionsRoutes = {
  activate: apiRoute({ method: 'POST', path: '/api/sections/:section/active', params: sectionParams, body: z.strictObject({ release: releaseId, note }), answer: sectionSwitchSchema }),
  rollback: apiRoute({ method: 'POST', path: '/api/sections/:section/rollback', params: sectionParams, body: z.strictObject({ release: releaseId.optional(), note }), answer: sectionSwitchSchema }),
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
  promote: apiRoute({ method: 'POST', path: '/api/sections/:section/canary/promote', params: sectionParams, body: z.strictObject({ note }), answer: shownSectionSchema }),
  abort: apiRoute({ method: 'DELETE', path: '/api/sections/:section/canary', params: sectionParams, body: z.strictObject({ note }), answer: shownSectionSchema }),
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
export const listedTokenSchema = z.object({
  name: z.string(),
  section: sectionSchema.nullable(),
  scopes: z.array(scopeSchema),
  createdAt: z.string(),
  createdBy: z.string(),
});

export const tokensRoutes = {
  list: apiRoute({ method: 'GET', path: '/api/tokens', answer: z.array(listedTokenSchema) }),
  create: apiRoute({
    method: 'POST',
    path: '/api/tokens',
    body: z.strictObject({ name: z.string().min(1).max(64), section: z.string().nullable().optional(), scopes: z.array(scopeSchema).min(1).optional() }),
    answer: z.object({ name: z.string(), section: sectionSchema.nullable(), scopes: z.array(scopeSchema), token: z.string() }),
  }),
  revoke: apiRoute({ method: 'DELETE', path: '/api/tokens/:name', params: z.object({ name: z.string() }), answer: z.object({ name: z.string(), revoked: z.literal(true) }) }),
};

export const configRoutes = {
  report: apiRoute({ method: 'GET', path: '/api/config', answer: z.object({ problems: z.array(configProblemSchema), warnings: z.array(configProblemSchema) }) }),
};

// ---------------------------------------------------------------------------
// The operator console's areas (docs/console.md): its sessions, what its
// screens read beside the routes above, and its alerts.

/** Who a session (or a token) is: its token's name and scopes, and the one section it acts on, if one. */
export const actorSchema = z.object({ name: z.string(), scopes: z.array(scopeSchema), section: sectionSchema.optional() });

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
  /** Who am I: the session (its CSRF value with it; docs/console.md says when the header may be absent). */
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
export const serverSchema = z.object({
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
export const releaseSeriesSchema = z.object({ release: z.string(), state: z.enum(['active', 'candidate', 'previous']), points: z.array(healthPointSchema) });

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
export const alertSettingsSchema = z.object({
  webhookUrl: z.string().nullable(),
  email: z.string().nullable(),
  /** A failure rate (0 to 1) that, held for an hour by an active release without a canary, raises an alert. */
  failureRateThreshold: z.number().nullable(),
});

export const ALERT_KINDS = ['auto-rollback', 'canary-decided', 'broken', 'set-aside', 'failure-rate'] as const;

export const alertsRoutes = {
  show: apiRoute({ method: 'GET', path: '/api/alerts', answer: alertSettingsSchema }),
  /** Changes what it names (null clears it), keeps the rest. */
  set: apiRoute({
    method: 'PUT',
    path: '/api/alerts',
    body: z.strictObject({
      webhookUrl: z.url({ protocol: /^https?$/, error: 'webhookUrl must be an absolute http(s) URL' }).max(2048).nullable().optional(),
      email: z.email('email must be an e-mail address').max(254).nullable().optional(),
      failureRateThreshold: z.number().gt(0, 'failureRateThreshold is above 0').max(1, 'failureRateThreshold is at most 1').nullable().optional(),
    }),
    answer: alertSettingsSchema,
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

export { messagesRoutes, storedMessageSchema, DEFAULT_MESSAGES_LIMIT, MAX_MESSAGES_LIMIT } from '@portico/messages/control-contract';
export { CSRF_HEADER } from '@portico/platform/api';
