import { z } from 'zod';
import { RELEASE_POLICIES } from './release-policy';

/** A canary an activation, a rollback or a retirement ended: its candidate and its share of visits. */
const endedCanarySchema = z.object({ release: z.string(), percent: z.number() });

/** A canary's thresholds as started (canary-settings.ts): fractions as stored (0.02 is 2 points). */
export const thresholdsSchema = z.object({
  minVisits: z.number(),
  maxFailureDelta: z.number(),
  maxSlowdown: z.number(),
  promoteAfterVisits: z.number().nullable(),
  minNetworks: z.number(),
  maxNetworkShare: z.number(),
});

/** What the judge read when it ended a canary: each release's visits and failure rate (a fraction). */
const judgedFiguresSchema = z.object({
  visits: z.number(),
  failureRate: z.number(),
  activeVisits: z.number(),
  activeFailureRate: z.number(),
  /** The vitals past the canary's maxSlowdown, each by how much slower (0.4: 40 % slower). */
  slower: z.array(z.object({ vital: z.enum(['lcpP75', 'inpP75']), by: z.number() })).optional(),
});

/** A canary ended by promotion or abort: its share and start; `judged` when the judge ended it, with the figures it read. */
const canaryEndShape = {
  percent: z.number(),
  startedAt: z.string(),
  judged: judgedFiguresSchema.optional(),
};

/** One change of a section's catalogue entry (section-catalogue.ts, `change`). */
const sectionChangeSchema = z.discriminatedUnion('field', [
  z.object({ field: z.literal('label'), language: z.enum(['en', 'id']), from: z.string(), to: z.string() }),
  z.object({ field: z.literal('origins'), origins: z.array(z.string()) }),
  z.object({ field: z.literal('markets'), markets: z.array(z.string()) }),
  z.object({ field: z.literal('grant'), from: z.boolean(), interactive: z.boolean() }),
  z.object({ field: z.literal('hidden'), hidden: z.boolean() }),
  z.object({ field: z.literal('policy'), from: z.enum(RELEASE_POLICIES), to: z.enum(RELEASE_POLICIES) }),
  /** `after` null: moved first. */
  z.object({ field: z.literal('order'), after: z.string().nullable() }),
]);
export type SectionChangeFact = z.infer<typeof sectionChangeSchema>;

/**
 * What the server composed an audit entry's English `detail` from, for a
 * reader in another language (issue 49); the entry's `release` and `from`
 * name the releases. Entries of other kinds, and any written before, have
 * their detail alone. A text a check or a server wrote (a check's reason,
 * why a build was set aside) is a fact as written: no pack translates it.
 */
export const auditFactsSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('publish'), build: z.string(), version: z.string(), manifestUrl: z.string() }),
  /** The same URL with the same bytes: the same release; `givenNote` a note given again, which the release does not take (it keeps `releaseNote`). */
  z.object({ kind: z.literal('republish'), givenNote: z.string().nullable(), releaseNote: z.string().nullable() }),
  /**
   * A publish the checks refused: those that ran and failed (id and reason as
   * the check wrote it), how many an earlier failure kept from running; or
   * `origin`, a URL outside the section's release origins (nothing fetched).
   */
  z.object({
    kind: z.literal('publish-refused'),
    manifestUrl: z.string(),
    failed: z.array(z.object({ check: z.string(), reason: z.string() })),
    notRun: z.number(),
    origin: z.string().optional(),
  }),
  z.object({ kind: z.literal('preview'), until: z.string() }),
  /** `again`: the release was active already, nothing changed. */
  z.object({ kind: z.literal('activate'), again: z.boolean(), endedCanary: endedCanarySchema.optional() }),
  /** No `release` on the entry: back to config.json's URL. */
  z.object({ kind: z.literal('rollback'), endedCanary: endedCanarySchema.optional() }),
  /** A canary started, or changed (`was`: its share and start before); `againstConfig`: judged against config.json's URL. */
  z.object({
    kind: z.literal('canary'),
    percent: z.number(),
    thresholds: thresholdsSchema,
    was: z.object({ percent: z.number(), startedAt: z.string() }).optional(),
    againstConfig: z.boolean(),
  }),
  z.object({ kind: z.literal('promote'), ...canaryEndShape }),
  /** A manual abort or the judge's rollback (`judged`); every visit gets the entry's `from`, or config.json's URL when null. */
  z.object({ kind: z.literal('abort'), ...canaryEndShape }),
  z.object({ kind: z.literal('section-change'), changes: z.array(sectionChangeSchema) }),
  /** A section added: its labels, where in the nav (`after` null: first; absent: last), its grant, origins and markets. */
  z.object({
    kind: z.literal('section-add'),
    labels: z.object({ en: z.string(), id: z.string() }),
    after: z.string().nullable().optional(),
    interactive: z.boolean(),
    origins: z.array(z.string()),
    markets: z.array(z.string()),
  }),
  /** Publishes held back unchecked (429) while the token was over its limit of refused publishes: how many, of which sections, when. */
  z.object({
    kind: z.literal('publish-held'),
    count: z.number(),
    sections: z.array(z.string()),
    from: z.string(),
    to: z.string(),
    limit: z.object({ max: z.number(), minutes: z.number() }),
  }),
  z.object({ kind: z.literal('section-retire'), endedCanary: endedCanarySchema.optional(), revoked: z.array(z.string()) }),
  /** Marked broken by the background check (`reason` as the check wrote it), or found whole again (`reason` absent). */
  z.object({ kind: z.literal('broken'), reason: z.string().optional() }),
  /** The active release's node build set aside (`again` false) or rendered on the server again; `reason` as the server wrote it. */
  z.object({ kind: z.literal('set-aside'), again: z.boolean(), reason: z.string() }),
]);
export type AuditFacts = z.infer<typeof auditFactsSchema>;
