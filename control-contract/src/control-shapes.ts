import { z } from 'zod';
import { FAILURE_CLASSES } from '@portico/contract/beacon';
import { SECTION_ID_PATTERN } from '@portico/contract/section-entries';
import { MARKETS } from '@portico/contract/languages';
import { MESSAGE_ACCESS_ACTIONS } from './messages-contract';
import { RELEASE_POLICIES } from './release-policy';
import { auditFactsSchema, thresholdsSchema } from './audit-facts';

// The control API's constants and the shapes its routes take and answer
// (control-contract.ts declares the routes with them and exports both).

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
export const CANARY_DEFAULTS = {
  minVisits: 50,
  maxFailureDelta: 0.02,
  maxSlowdown: 0.25,
  promoteAfterVisits: null,
  minNetworks: 5,
  maxNetworkShare: 0.2,
} as const;

// ---------------------------------------------------------------------------
// The shapes the answers are made of.

/** A section's id as the grammar allows it (contract/src/section-entries.ts): whether it names a section is the store's to say. */
export const sectionSchema = z.string().check(z.regex(SECTION_ID_PATTERN, 'must be a section id: 2 to 24 lowercase letters, digits or "-"'));

export const RELEASE_STATES = ['active', 'candidate', 'previous', 'available', 'broken'] as const;

/** What a token may do: every section's releases, the contact messages, the server's metrics (a scraper's), or one section's releases. */
export const scopeSchema = z.union([z.literal('releases'), z.literal('messages'), z.literal('metrics'), z.templateLiteral(['section:', sectionSchema])], {
  error: 'a scope is releases, messages, metrics or section:<section>',
});

export const AUDIT_ACTIONS = [
  'publish',
  'publish-refused',
  'activate',
  'rollback',
  'preview',
  'canary',
  'promote',
  'abort',
  'auto-rollback',
  'token',
  'broken',
  'set-aside',
  'alerts',
  'section-add',
  'section-change',
  'section-retire',
] as const;

/** One check a publish ran, in words. */
export const checkResultSchema = z.object({ name: z.string(), ok: z.boolean(), detail: z.string() });

/** How the detail of a check that could not run begins (`not run: the manifest was not fetched`). */
export const NOT_RUN = 'not run';

/** A check that did not pass because it could not run (an earlier one failed), not because it found a fault. */
export const notRun = (check: z.infer<typeof checkResultSchema>): boolean => !check.ok && (check.detail === NOT_RUN || check.detail.startsWith(`${NOT_RUN}:`));

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
const brokenMarkSchema = z.object({ at: z.string(), detail: z.string() });
/** A release as the control API shows it: `broken` only when it is. */
export const shownReleaseSchema = releaseSchema.extend({ broken: brokenMarkSchema.optional() });
/** A release in a listing, with its state. */
export const listedReleaseSchema = shownReleaseSchema.extend({ state: z.enum(RELEASE_STATES) });
/** A section's release as its state shows it: also `setAside` when a server's supervisor gave up on its node build. */
const stateReleaseSchema = shownReleaseSchema.extend({ setAside: brokenMarkSchema.optional() });

/** The figures the canary's judge bounds per network: as counted, or (`raw`) as reported. */
const judgedFiguresSchema = z.object({
  visits: z.number(),
  failures: z.number(),
  /** failures / visits; 0 with no visits. */
  failureRate: z.number(),
  /** p75 of the visits that reported it; null when none did. */
  lcpP75: z.number().nullable(),
  inpP75: z.number().nullable(),
});

/**
 * One release's health over a window (visits reported by pages that ran
 * it). While a canary runs, the figures are the judge's (each network
 * bounded, the servers' own failures added: possibly fractional), and
 * `raw` gives the reports as received where they differ; `failuresByClass`
 * and `clsP75` are the reports' (the judge counts neither per network).
 */
export const releaseHealthSchema = judgedFiguresSchema.extend({
  failuresByClass: z.partialRecord(z.enum(FAILURE_CLASSES), z.number()),
  clsP75: z.number().nullable(),
  raw: judgedFiguresSchema.optional(),
});

/** What the judge reads of a canary's release beside its health: its networks, and what the servers saw themselves. */
export const judgedSchema = z.object({
  networks: z.number(),
  renderFailures: z.number(),
  setAside: z.number(),
  contactErrors: z.number(),
  broken: z.string().nullable(),
});

/** A running canary's thresholds, number and start. */
export const shownCanarySchema = thresholdsSchema.extend({
  id: z.number(),
  startedAt: z.string(),
  startedBy: z.string(),
});

/** A section's tab text in each language. */
const sectionLabelsSchema = z.object({ en: z.string(), id: z.string() });

/** What the catalogue holds of a section besides its releases (sections as data, issue 48); optional, as a release-only answer leaves them out. */
const sectionEntryShape = {
  labels: sectionLabelsSchema.optional(),
  /** Where its releases may be published from (an added section's; a built-in one's are config.json's, so none here). */
  origins: z.array(z.string()).optional(),
  /** Its place in the nav, 0 first, hidden sections counted; null once retired. */
  order: z.number().nullable().optional(),
  markets: z.array(z.enum(MARKETS)).optional(),
  hidden: z.boolean().optional(),
  builtIn: z.boolean().optional(),
  /** How far its own token may take a release alone (release-policy.ts). */
  policy: z.enum(RELEASE_POLICIES).optional(),
  /** When and by whom it was retired: it is then in no nav and takes no change. */
  retired: z.object({ at: z.string(), by: z.string() }).optional(),
};

/** A section's entry as an add, a change and a retirement answer it: `section` its id, as the grant's answer had it. */
export const sectionEntrySchema = z.object({
  section: sectionSchema,
  id: sectionSchema,
  labels: sectionLabelsSchema,
  origins: z.array(z.string()),
  interactive: z.boolean(),
  order: z.number().nullable(),
  markets: z.array(z.enum(MARKETS)),
  hidden: z.boolean(),
  builtIn: z.boolean(),
  /** Always sent; optional so an answer from before the release policy still reads (as the default). */
  policy: z.enum(RELEASE_POLICIES).optional(),
  retired: z.object({ at: z.string(), by: z.string() }).optional(),
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
  /** The integrator's grant as the store holds it (the built-in one until set): whether the section may run script in the visitor's browser. */
  interactive: z.boolean().optional(),
  ...sectionEntryShape,
});

/** The answer to an activation or a rollback: what the section serves now, and where a rollback would take it. */
export const sectionSwitchSchema = z.object({ section: sectionSchema, active: shownReleaseSchema.nullable(), previous: shownReleaseSchema.nullable() });

export { auditFactsSchema, type AuditFacts } from './audit-facts';

export const auditEntrySchema = z.object({
  at: z.string(),
  actor: z.string(),
  action: z.enum([...AUDIT_ACTIONS, ...MESSAGE_ACCESS_ACTIONS]),
  section: sectionSchema.nullable(),
  release: z.string().nullable(),
  /** The release active before, for an activation or a rollback. */
  from: z.string().nullable(),
  /** In English: the facts in words, then the note. */
  detail: z.string(),
  /**
   * What the detail was composed from (entries since issue 49, of the kinds auditFactsSchema names).
   * A kind this reader does not know (a later server's) reads as absent, so the detail is shown: never a failed page.
   */
  facts: auditFactsSchema.optional().catch(undefined),
  /** The note a person typed with the change, as typed (with `facts`; before, it was in `detail`). */
  note: z.string().optional(),
  /** The control API request that made the entry (its X-Request-Id), null for a scheduled job's or a command's on the database. */
  requestId: z.string().nullable().optional(),
  /** Where the next page starts (`?before=`): opaque. */
  cursor: z.string().optional(),
});

export const configProblemSchema = z.object({ field: z.string(), message: z.string() });

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

export const note = z.string().max(1000, 'at most 1000 characters').optional();
export const releaseId = z.string().min(1).max(100);
/** A query's whole number from 1 to `max`, `fallback` when absent, in the query's words (`hours must be …`). */
export const wholeQuery = (max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((text, context) => {
      const value = text === undefined ? fallback : Number(text);
      if (Number.isInteger(value) && value >= 1 && value <= max) return value;
      context.addIssue({ code: 'custom', message: `must be a whole number from 1 to ${max}` });
      return z.NEVER;
    });
export const sectionParams = z.object({ section: z.string() });
