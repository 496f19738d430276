import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SECTION_IDS, type SectionId } from '@portico/contract/sections';
import { CONTROL_TOKEN_FILE } from '@portico/platform/control-address';
import type { Database, Listening, Sql } from '@portico/platform/database';
import { addSignal, readCanaryCounts, type CanaryCounts, type SignalKind } from '../canary/canary-counts';
import { canarySettingsProblem, describeThresholds, type CanaryOptions, type CanarySettings } from '../canary/canary-settings';
import { CANARY_DEFAULTS, type ActiveReleases, type Actor, type AuditAction, type AuditEntry, type Canary, type CheckResult, type Release, type ReleaseState, type Scope, type ServedState } from '../release';
import { ALL_SCOPES, BACKGROUND_CHECK_ACTOR, ENVIRONMENT_ACTOR, isScope, isSection, OWNER_TOKEN_NAME, reservedNameProblem, sectionOfScopes, SERVER_ACTOR } from '../scopes';
import { migrateCanaries } from './canary-migrations';
import { ReleaseError } from './release-error';
import { migrateReleases } from './release-migrations';

/** The channel every activation, rollback and canary change is announced on, with the section as payload. */
export const RELEASES_CHANNEL = 'portico_releases';

/** How often `watch` looks at the database besides listening: the bound on a lost notification. */
export const WATCH_POLL_MS = 5000;

/** How often `watch` tries to listen again once its connection is lost (a database restart): well within a second of the database answering. */
export const RELISTEN_MS = 300;

/** A release found broken after it was published (its files removed or changed on its host). */
export interface BrokenMark {
  at: string;
  detail: string;
}

/** A release as the store keeps it: the contract's fields, its checks and whether it was found broken. */
export interface StoredRelease extends Release {
  checks: CheckResult[];
  broken: BrokenMark | null;
}

/** A release as the control API shows it: the contract's fields, `broken` only when it is. */
export type ShownRelease = Release & { broken?: BrokenMark };

/** A section's release as its state shows it: also `setAside` when a server's supervisor gave up on its node build. */
export type StateRelease = ShownRelease & { setAside?: BrokenMark };

export type ListedRelease = ShownRelease & { state: ReleaseState };

export interface PublishInput {
  section: SectionId;
  manifestUrl: string;
  integrity: string;
  version: string;
  buildId: string;
  /** The publishing token's name. */
  createdBy: string;
  note?: string | null;
  checks: CheckResult[];
}

/** A section's state: what its visitors get, and what a rollback would go back to. */
export interface SectionState {
  active: StateRelease | null;
  /** The release a rollback without a release id would make active; null with an active release: config.json's URL. */
  previous: ShownRelease | null;
  /** When the active release became active (its activation, or the rollback back to it, or to config.json's URL), and by whom. */
  since: string | null;
  by: string | null;
  /** While a canary runs: the candidate, the share of visits it gets, and its thresholds and start. */
  candidate?: StateRelease;
  percent?: number;
  canary?: Omit<CanarySettings, 'percent'> & { id: number; startedAt: string; startedBy: string };
}

/** What a server saw itself of a section's release (docs/releases.md, "Server-side signals"). */
export interface ServerSignal {
  section: SectionId;
  releaseId: string;
  kind: SignalKind | 'running-again';
  /** For the log and the audit: why (a worker's last death, a render's error). */
  detail: string;
}

/** How the judge ends a canary, in the audit log's words. */
export interface CanarySettlement {
  action: 'promote' | 'auto-rollback';
  detail: string;
}

/** The answer to an activation or a rollback. */
export interface SectionSwitch {
  section: SectionId;
  /** Null: the section serves config.json's URL. */
  active: ShownRelease | null;
  /** What a rollback without a release would make active (null: config.json's URL); with no active release, the release just replaced. */
  previous: ShownRelease | null;
}

export interface CreatedToken {
  name: string;
  section: SectionId | null;
  scopes: Scope[];
  /** Shown this once; the store keeps only its hash. */
  token: string;
}

/** An audit entry to record: who and what, and where it applies; the time is the database's. */
export type AuditInput = Pick<AuditEntry, 'actor' | 'action'> & Partial<Pick<AuditEntry, 'section' | 'release' | 'from' | 'detail'>>;

export interface ReleaseStoreOptions {
  /** PORTICO_CONTROL_TOKEN: accepted as an integrator token (actor `environment`, scopes releases and messages). */
  environmentToken?: string;
}

interface ReleaseRow {
  id: string;
  section: SectionId;
  manifest_url: string;
  integrity: string;
  version: string;
  build_id: string;
  created_at: Date | string;
  created_by: string;
  note: string | null;
  checks: CheckResult[] | string;
  broken_at: Date | string | null;
  broken_detail: string | null;
}

const RELEASE_COLUMNS = 'r.id, r.section, r.manifest_url, r.integrity, r.version, r.build_id, r.created_at, r.created_by, r.note, r.checks, r.broken_at, r.broken_detail';
/** Each section's active release id: its latest activation not popped by a rollback. */
const ACTIVE_RELEASE_IDS = 'SELECT DISTINCT ON (section) release_id FROM release_activations WHERE popped_at IS NULL ORDER BY section, seq DESC';

const iso = (value: Date | string) => new Date(value).toISOString();

interface CanaryRow extends ReleaseRow {
  canary_id: number | string;
  min_networks: number;
  max_network_share: number | string;
  percent: number;
  min_visits: number;
  max_failure_delta: number | string;
  max_slowdown: number | string;
  promote_after_visits: number | null;
  started_at: Date | string;
  started_by: string;
}

const CANARY_COLUMNS = `c.id AS canary_id, c.min_networks, c.max_network_share, c.percent, c.min_visits, c.max_failure_delta, c.max_slowdown, c.promote_after_visits, c.started_at, c.started_by, ${RELEASE_COLUMNS}`;

/** A canary as the store reads it: the contract's shape, and its candidate as the control API shows it (broken or not). */
interface StoredCanary {
  canary: Canary;
  candidate: ShownRelease;
}

function toCanary(row: CanaryRow): StoredCanary {
  const stored = toStored(row);
  const { checks: _checks, broken: _broken, ...release } = stored;
  return {
    canary: {
      id: Number(row.canary_id),
      section: row.section,
      release,
      percent: Number(row.percent),
      minVisits: Number(row.min_visits),
      maxFailureDelta: Number(row.max_failure_delta),
      maxSlowdown: Number(row.max_slowdown),
      promoteAfterVisits: row.promote_after_visits === null ? null : Number(row.promote_after_visits),
      minNetworks: Number(row.min_networks),
      maxNetworkShare: Number(row.max_network_share),
      startedAt: iso(row.started_at),
      startedBy: row.started_by,
    },
    candidate: shown(stored),
  };
}

/** The audit detail of a rollback that leaves a section with no release. */
const CONFIG_URL_AGAIN = "back to config.json's URL: no release is active";

/** `a; b`, leaving out what is empty: several facts in one audit detail. */
const joined = (...parts: (string | null | undefined)[]) => parts.filter((part) => part).join('; ');

function toStored(row: ReleaseRow): StoredRelease {
  return {
    id: row.id,
    section: row.section,
    manifestUrl: row.manifest_url,
    integrity: row.integrity,
    version: row.version,
    buildId: row.build_id,
    createdAt: iso(row.created_at),
    createdBy: row.created_by,
    note: row.note,
    checks: typeof row.checks === 'string' ? (JSON.parse(row.checks) as CheckResult[]) : row.checks,
    broken: row.broken_at === null ? null : { at: iso(row.broken_at), detail: row.broken_detail ?? '' },
  };
}

function shown(release: StoredRelease): ShownRelease {
  const { checks: _checks, broken, ...fields } = release;
  return broken ? { ...fields, broken } : fields;
}

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/** Letters, digits, `.`, `_`, `-`: a token's name is typed on command lines and read in the audit log. */
const TOKEN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The live activation history of a section, top (active) first. */
interface StackEntry {
  seq: string;
  release_id: string;
}

/**
 * Releases, their activation history, tokens and the audit log, in the
 * messages' PostgreSQL database (embedded or a server). Every server on
 * the database shares one state: an activation is serialised per section
 * (a row lock every server takes), committed with its audit entry, and
 * announced on RELEASES_CHANNEL for the others to pick up.
 */
export class ReleaseStore {
  private secret: Promise<Buffer> | undefined;
  private readonly environmentHash: Buffer | undefined;

  private constructor(
    readonly db: Database,
    options: ReleaseStoreOptions,
  ) {
    this.environmentHash = options.environmentToken ? hashOf(options.environmentToken) : undefined;
  }

  /** Opens the store on `db` (the contact service's database object: PGlite is one per folder), bringing its schema up to date. */
  static async open(db: Database, options: ReleaseStoreOptions = {}): Promise<ReleaseStore> {
    await migrateReleases(db);
    await migrateCanaries(db);
    return new ReleaseStore(db, options);
  }

  // --- releases -----------------------------------------------------------

  /** Stores a checked release; the same URL with the same integrity answers the existing one (`created` false). */
  async publish(input: PublishInput): Promise<{ release: StoredRelease; created: boolean }> {
    if (!isSection(input.section)) throw new ReleaseError('not-found', `no section ${JSON.stringify(input.section)}`);
    return this.db.transaction(async (sql) => {
      const [inserted] = await sql.query<ReleaseRow>(
        `INSERT INTO releases AS r (section, manifest_url, integrity, version, build_id, created_by, note, checks)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)
         ON CONFLICT (section, manifest_url, integrity) DO NOTHING
         RETURNING ${RELEASE_COLUMNS}`,
        [input.section, input.manifestUrl, input.integrity, input.version, input.buildId, input.createdBy, input.note ?? null, JSON.stringify(input.checks)],
      );
      if (inserted) {
        const release = toStored(inserted);
        await this.record(sql, { actor: input.createdBy, action: 'publish', section: input.section, release: release.id, detail: `build ${release.buildId}, version ${release.version}, ${release.manifestUrl}` });
        return { release, created: true };
      }
      const [existing] = await sql.query<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM releases r WHERE section = $1 AND manifest_url = $2 AND integrity = $3`, [
        input.section,
        input.manifestUrl,
        input.integrity,
      ]);
      if (!existing) throw new Error(`the release of ${input.manifestUrl} vanished while being published`);
      const release = toStored(existing);
      await this.record(sql, { actor: input.createdBy, action: 'publish', section: input.section, release: release.id, detail: 'published again: the same URL with the same bytes' });
      return { release, created: false };
    });
  }

  async get(id: string): Promise<StoredRelease | undefined> {
    const [row] = await this.db.query<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM releases r WHERE id = $1`, [id]);
    return row && toStored(row);
  }

  /** The releases of `sections` (every section by default), newest first, each with its state. */
  async list(options: { sections?: readonly SectionId[] } = {}): Promise<ListedRelease[]> {
    const sections = options.sections ?? SECTION_IDS;
    const [rows, stacks, candidates] = await Promise.all([
      this.db.query<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM releases r WHERE section = ANY($1::text[]) ORDER BY n DESC`, [[...sections]]),
      this.stackTops(this.db),
      this.candidateIds(),
    ]);
    return rows.map((row) => {
      const release = toStored(row);
      const stack = stacks.get(release.section) ?? [];
      return { ...shown(release), state: stateOf(release, stack, candidates) };
    });
  }

  /** The releases in a canary now: the ones `list` calls `candidate`. */
  private async candidateIds(): Promise<ReadonlySet<string>> {
    return new Set((await this.db.query<{ release_id: string }>('SELECT release_id FROM release_canaries')).map((row) => row.release_id));
  }

  /** Each section's active release, where it has one: what every server serves. */
  async active(): Promise<ActiveReleases> {
    const rows = await this.db.query<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM (${ACTIVE_RELEASE_IDS}) a JOIN releases r ON r.id = a.release_id`);
    const active: ActiveReleases = {};
    for (const row of rows) {
      const { checks: _checks, broken: _broken, ...release } = toStored(row);
      active[row.section] = release;
    }
    return active;
  }

  /**
   * What every server serves: each section's active release and, for a
   * section in a canary, its candidate and share. One statement, so one
   * snapshot: a promotion is never seen half done (the candidate both
   * active and in a canary, or neither).
   */
  async served(): Promise<ServedState> {
    const rows = await this.db.query<ReleaseRow & { percent: number | null; canary_id: string | null; started_at: Date | string | null }>(
      `SELECT NULL::integer AS percent, NULL::bigint AS canary_id, NULL::timestamptz AS started_at, ${RELEASE_COLUMNS} FROM (${ACTIVE_RELEASE_IDS}) a JOIN releases r ON r.id = a.release_id
       UNION ALL
       SELECT c.percent, c.id, c.started_at, ${RELEASE_COLUMNS} FROM release_canaries c JOIN releases r ON r.id = c.release_id`,
    );
    const served: ServedState = { active: {}, canaries: {} };
    for (const row of rows) {
      const { checks: _checks, broken: _broken, ...release } = toStored(row);
      if (row.percent === null) served.active[row.section] = release;
      else served.canaries[row.section] = { release, percent: Number(row.percent), id: Number(row.canary_id), startedAt: iso(row.started_at!) };
    }
    return served;
  }

  /** The canaries running now, by section. */
  async canaries(): Promise<Partial<Record<SectionId, Canary>>> {
    const canaries: Partial<Record<SectionId, Canary>> = {};
    for (const [section, { canary }] of await this.canariesIn(this.db)) canaries[section] = canary;
    return canaries;
  }

  private async canariesIn(sql: Sql, only?: SectionId): Promise<Map<SectionId, StoredCanary>> {
    const rows = await sql.query<CanaryRow>(
      `SELECT ${CANARY_COLUMNS} FROM release_canaries c JOIN releases r ON r.id = c.release_id ${only ? 'WHERE c.section = $1' : ''}`,
      only ? [only] : [],
    );
    return new Map(rows.map((row) => [row.section, toCanary(row)]));
  }

  /** Every section's active and previous release (or `only`'s), and since when and by whom the active one is. */
  async sectionStates(only?: SectionId): Promise<Record<SectionId, SectionState>> {
    return this.statesOf(this.db, only);
  }

  private async statesOf(sql: Sql, only?: SectionId): Promise<Record<SectionId, SectionState>> {
    const [tops, changes] = await Promise.all([
      this.stackTops(sql),
      sql.query<{ section: SectionId; changed_at: Date | string | null; changed_by: string | null }>('SELECT section, changed_at, changed_by FROM release_sections'),
    ]);
    // Not a third at once: in a transaction `sql` is one connection, and node-postgres queues (and warns) past two.
    const canaries = await this.canariesIn(sql);
    const ids = [...tops.values()].flat();
    const releases = new Map<string, StoredRelease>();
    if (ids.length > 0) {
      for (const row of await sql.query<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM releases r WHERE id = ANY($1::text[])`, [ids])) releases.set(row.id, toStored(row));
    }
    const marks = new Map(
      (await sql.query<{ release_id: string; at: Date | string; detail: string }>('SELECT release_id, at, detail FROM release_set_aside')).map((row) => [row.release_id, { at: iso(row.at), detail: row.detail }]),
    );
    const withMark = (release: ShownRelease): StateRelease => (marks.has(release.id) ? { ...release, setAside: marks.get(release.id)! } : release);
    const pick = (id: string | undefined) => {
      const release = id === undefined ? undefined : releases.get(id);
      return release ? withMark(shown(release)) : null;
    };
    const states = {} as Record<SectionId, SectionState>;
    for (const section of only ? [only] : SECTION_IDS) {
      const [active, previous] = tops.get(section) ?? [];
      const change = changes.find((row) => row.section === section);
      states[section] = {
        active: pick(active),
        previous: pick(previous),
        // A section rolled back to config.json's URL shows since when and by whom too.
        since: change?.changed_at ? iso(change.changed_at) : null,
        by: change?.changed_at ? (change.changed_by ?? null) : null,
      };
      const running = canaries.get(section);
      if (running) {
        const { section: _section, release: _release, percent, ...thresholds } = running.canary;
        states[section] = { ...states[section], candidate: withMark(running.candidate), percent, canary: thresholds };
      }
    }
    return states;
  }

  /** The two top entries of every section's stack: the active release and the one a rollback goes back to. */
  private async stackTops(sql: Sql): Promise<Map<SectionId, string[]>> {
    const rows = await sql.query<{ section: SectionId; release_id: string }>(
      `SELECT section, release_id FROM (
         SELECT section, release_id, row_number() OVER (PARTITION BY section ORDER BY seq DESC) AS depth
         FROM release_activations WHERE popped_at IS NULL
       ) stack WHERE depth <= 2 ORDER BY section, depth`,
    );
    const tops = new Map<SectionId, string[]>();
    for (const row of rows) tops.set(row.section, [...(tops.get(row.section) ?? []), row.release_id]);
    return tops;
  }

  // --- activation history -------------------------------------------------

  /** Makes `releaseId` the section's active release: pushed on its history (already active: nothing changes). */
  activate(section: SectionId, releaseId: string, actor: string, note?: string | null): Promise<SectionSwitch> {
    return this.change(section, actor, async (sql, stack) => {
      await this.releaseOf(sql, section, releaseId);
      const from = stack[0]?.release_id ?? null;
      if (from !== releaseId) await this.push(sql, section, releaseId, actor);
      return { action: 'activate', release: releaseId, from, detail: note ?? (from === releaseId ? 'already active' : '') };
    });
  }

  /**
   * Goes back in the section's history. Without a release: one step (the
   * active release is popped, the one below becomes active; twice in a row
   * goes back two). Below the first release is the state before it,
   * config.json's URL: rolling back the only release in the history returns
   * the section there (`active` null; the answer's `previous` is the release
   * it replaced, the one to activate to undo it). To a release lower in the
   * history: down to it. To one not in it: pushed, as an activation. 409
   * when the section serves config.json's URL already, or the release is
   * the active one.
   */
  rollback(section: SectionId, releaseId: string | undefined, actor: string, note?: string | null): Promise<SectionSwitch> {
    return this.change(section, actor, async (sql, stack) => {
      const top = stack[0];
      if (releaseId === undefined) {
        if (!top) throw new ReleaseError('conflict', `${section} has no active release to roll back from: it serves the URL in config.json already`);
        const below = stack[1];
        await sql.query('UPDATE release_activations SET popped_at = now() WHERE seq = $1', [top.seq]);
        return { action: 'rollback', release: below?.release_id ?? null, from: top.release_id, detail: below ? (note ?? '') : joined(note, CONFIG_URL_AGAIN) };
      }
      await this.releaseOf(sql, section, releaseId);
      if (top?.release_id === releaseId) throw new ReleaseError('conflict', `${releaseId} is already the active release of ${section}`);
      const target = stack.find((entry) => entry.release_id === releaseId);
      if (target) {
        await sql.query('UPDATE release_activations SET popped_at = now() WHERE section = $1 AND popped_at IS NULL AND seq > $2', [section, target.seq]);
      } else {
        await this.push(sql, section, releaseId, actor);
      }
      return { action: 'rollback', release: releaseId, from: top?.release_id ?? null, detail: note ?? '' };
    });
  }

  /**
   * Runs `work` in one transaction holding the section's row lock: every
   * change of a section (activation, rollback, canary) on every server
   * takes it, so they happen one after the other. `work` sees the
   * section's activation history and its canary as they are under the lock.
   */
  private async locked<T>(section: SectionId, work: (sql: Sql, now: { stack: StackEntry[]; canary: StoredCanary | undefined }) => Promise<T>): Promise<T> {
    if (!isSection(section)) throw new ReleaseError('not-found', `no section ${JSON.stringify(section)}`);
    return this.db.transaction(async (sql) => {
      await sql.query('INSERT INTO release_sections (section) VALUES ($1) ON CONFLICT (section) DO NOTHING', [section]);
      await sql.query('SELECT section FROM release_sections WHERE section = $1 FOR UPDATE', [section]);
      // Ordered by the column, not by the text alias: as text, seq 10 sorts below seq 9.
      const stack = await sql.query<StackEntry>(
        'SELECT a.seq::text AS seq, a.release_id FROM release_activations a WHERE a.section = $1 AND a.popped_at IS NULL ORDER BY a.seq DESC',
        [section],
      );
      const canary = (await this.canariesIn(sql, section)).get(section);
      return work(sql, { stack, canary });
    });
  }

  /**
   * Closes a change made under the lock: its audit entry, in the same
   * transaction; the section's generation, which the watchers poll (and
   * when the active release changed, since when and by whom); and the
   * announcement on RELEASES_CHANNEL, delivered when the transaction
   * commits, and only then.
   */
  private async announce(sql: Sql, section: SectionId, entry: AuditInput, activeChanged: boolean): Promise<void> {
    await this.record(sql, { ...entry, section });
    if (activeChanged) {
      await sql.query('UPDATE release_sections SET generation = generation + 1, changed_at = now(), changed_by = $2 WHERE section = $1', [section, entry.actor]);
    } else {
      await sql.query('UPDATE release_sections SET generation = generation + 1 WHERE section = $1', [section]);
    }
    await sql.query('SELECT pg_notify($1, $2)', [RELEASES_CHANNEL, section]);
  }

  /**
   * One change of a section's active release (an activation or a
   * rollback), under the section's lock, audited and announced. It ends
   * the section's canary, if one runs: the operator has said what every
   * visitor gets, and the canary was judged against the release that was
   * active. The audit entry's detail says so.
   */
  private change(
    section: SectionId,
    actor: string,
    work: (sql: Sql, stack: StackEntry[]) => Promise<{ action: AuditAction; release: string | null; from: string | null; detail: string }>,
  ): Promise<SectionSwitch> {
    return this.locked(section, async (sql, { stack, canary }) => {
      const done = await work(sql, stack);
      let detail = done.detail;
      if (canary) {
        await sql.query('DELETE FROM release_canaries WHERE section = $1', [section]);
        detail = joined(detail, `ended the canary of ${canary.canary.release.id} (${canary.canary.percent} % of visits)`);
      }
      await this.announce(sql, section, { actor, ...done, detail }, true);
      const switched = await this.switchOf(sql, section);
      // Back on config.json's URL, no release is a rollback's target: the answer names the release it replaced instead.
      if (switched.active === null && done.from !== null) {
        const [replaced] = await sql.query<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM releases r WHERE id = $1`, [done.from]);
        return { ...switched, previous: replaced ? shown(toStored(replaced)) : null };
      }
      return switched;
    });
  }

  private async switchOf(sql: Sql, section: SectionId): Promise<SectionSwitch> {
    const { active, previous } = (await this.statesOf(sql, section))[section];
    return { section, active, previous };
  }

  // --- canaries -----------------------------------------------------------

  /**
   * Starts serving `releaseId` to `options.percent` % of the section's
   * visits beside its active release; a threshold not given takes its
   * CANARY_DEFAULTS value. The release must be the section's (404, 409),
   * not the active one (409), and the section must have an active release
   * to judge it against (409). A canary of another release already
   * running: 409 (promote or abort it first: replacing it would drop its
   * judgement unseen). The same release again changes its share and the
   * thresholds given (the others stay), keeping its start: raising the
   * share step by step keeps every visitor already in the candidate's
   * cohort in it, and the judgement's window whole.
   */
  startCanary(section: SectionId, releaseId: string, options: CanaryOptions & { note?: string | null }, actor: string): Promise<Canary> {
    return this.locked(section, async (sql, { stack, canary: running }) => {
      await this.releaseOf(sql, section, releaseId);
      const active = stack[0]?.release_id;
      if (active === undefined) throw new ReleaseError('conflict', `${section} has no active release to judge a canary against: activate one first`);
      if (active === releaseId) throw new ReleaseError('conflict', `${releaseId} is already the active release of ${section}`);
      if (running && running.canary.release.id !== releaseId) {
        throw new ReleaseError('conflict', `${section} already has a canary, ${running.canary.release.id} (${running.canary.percent} % since ${running.canary.startedAt}): promote or abort it first`);
      }
      const given = Object.fromEntries(Object.entries(options).filter(([key, value]) => value !== undefined && key !== 'note')) as Partial<CanarySettings>;
      const { id: _id, ...runningSettings } = running?.canary ?? { id: 0 };
      const settings: CanarySettings = { ...CANARY_DEFAULTS, ...runningSettings, ...given } as CanarySettings;
      const problem = canarySettingsProblem(settings);
      if (problem) throw new ReleaseError('invalid', `${problem.field}: ${problem.problem}`, problem.field);
      const values = [
        section,
        releaseId,
        settings.percent,
        settings.minVisits,
        settings.maxFailureDelta,
        settings.maxSlowdown,
        settings.promoteAfterVisits,
        settings.minNetworks,
        settings.maxNetworkShare,
      ];
      let detail: string;
      if (running) {
        await sql.query(
          `UPDATE release_canaries SET percent = $3, min_visits = $4, max_failure_delta = $5, max_slowdown = $6, promote_after_visits = $7,
             min_networks = $8, max_network_share = $9
           WHERE section = $1 AND release_id = $2`,
          values,
        );
        detail = `now ${settings.percent} % of visits (was ${running.canary.percent} %), started ${running.canary.startedAt}; ${describeThresholds(settings)}`;
      } else {
        await sql.query(
          `INSERT INTO release_canaries (section, release_id, percent, min_visits, max_failure_delta, max_slowdown, promote_after_visits, min_networks, max_network_share, started_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [...values, actor],
        );
        detail = `${settings.percent} % of visits; ${describeThresholds(settings)}`;
      }
      await this.announce(sql, section, { actor, action: 'canary', release: releaseId, from: active, detail: joined(options.note, detail) }, false);
      return (await this.canariesIn(sql, section)).get(section)!.canary;
    });
  }

  /**
   * Makes the section's candidate its active release, through the
   * activation history as `activate` does (so a rollback goes back to the
   * release it replaced), and ends the canary. 409 when none runs.
   */
  promoteCanary(section: SectionId, actor: string, detail?: string | null): Promise<SectionSwitch> {
    return this.locked(section, async (sql, { stack, canary }) => {
      if (!canary) throw new ReleaseError('conflict', `${section} has no canary to promote`);
      await this.promoteIn(sql, section, stack, canary.canary, actor, detail);
      return this.switchOf(sql, section);
    });
  }

  /** Ends the section's canary, its candidate served to no one: `abort` by an operator, `auto-rollback` by the judge. 409 when none runs. */
  abortCanary(section: SectionId, actor: string, action: 'abort' | 'auto-rollback', detail?: string | null): Promise<Canary> {
    return this.locked(section, async (sql, { stack, canary }) => {
      if (!canary) throw new ReleaseError('conflict', `${section} has no canary to abort`);
      await this.abortIn(sql, section, stack, canary.canary, actor, action, detail);
      return canary.canary;
    });
  }

  /**
   * The judge's step, taken once whichever server gets there first: under
   * the section's lock, `decide` sees the canary as it is now (its
   * thresholds included) and the active release, and answers how the
   * canary ends, or undefined to let it run (nothing recorded). A canary
   * other than `expected` (ended meanwhile, or another one started) is left
   * alone: the health the caller read was of another window.
   */
  settleCanary(
    section: SectionId,
    expected: { release: string; startedAt: string },
    decide: (canary: Canary, active: string) => CanarySettlement | undefined,
    actor: string,
  ): Promise<CanarySettlement | undefined> {
    return this.locked(section, async (sql, { stack, canary }) => {
      const active = stack[0]?.release_id;
      if (!canary || active === undefined || canary.canary.release.id !== expected.release || canary.canary.startedAt !== expected.startedAt) return undefined;
      const settlement = decide(canary.canary, active);
      if (settlement?.action === 'promote') await this.promoteIn(sql, section, stack, canary.canary, actor, settlement.detail);
      else if (settlement) await this.abortIn(sql, section, stack, canary.canary, actor, 'auto-rollback', settlement.detail);
      return settlement;
    });
  }

  private async promoteIn(sql: Sql, section: SectionId, stack: StackEntry[], canary: Canary, actor: string, detail: string | null | undefined): Promise<void> {
    await this.push(sql, section, canary.release.id, actor);
    await sql.query('DELETE FROM release_canaries WHERE section = $1', [section]);
    const fallback = `promoted from the canary (${canary.percent} % of visits since ${canary.startedAt})`;
    await this.announce(sql, section, { actor, action: 'promote', release: canary.release.id, from: stack[0]?.release_id ?? null, detail: detail || fallback }, true);
  }

  private async abortIn(sql: Sql, section: SectionId, stack: StackEntry[], canary: Canary, actor: string, action: 'abort' | 'auto-rollback', detail: string | null | undefined): Promise<void> {
    await sql.query('DELETE FROM release_canaries WHERE section = $1', [section]);
    const fallback = `the canary ended (${canary.percent} % of visits since ${canary.startedAt}); every visit gets ${stack[0]?.release_id ?? 'the active release'}`;
    await this.announce(sql, section, { actor, action, release: canary.release.id, from: stack[0]?.release_id ?? null, detail: detail || fallback }, false);
  }

  private async push(sql: Sql, section: SectionId, releaseId: string, actor: string): Promise<void> {
    await sql.query('INSERT INTO release_activations (section, release_id, actor) VALUES ($1, $2, $3)', [section, releaseId, actor]);
  }

  /** The release `id` of `section`: 404 when there is none, 409 when it is another section's. */
  private async releaseOf(sql: Sql, section: SectionId, id: string): Promise<void> {
    const [row] = await sql.query<{ section: SectionId }>('SELECT section FROM releases WHERE id = $1', [id]);
    if (!row) throw new ReleaseError('not-found', `no release ${id}`);
    if (row.section !== section) throw new ReleaseError('conflict', `${id} is a release of ${row.section}, not of ${section}`);
  }

  /** Marks a release found broken by the background check (audited the first time); false when there is no such release. */
  async markBroken(id: string, detail: string): Promise<boolean> {
    return this.db.transaction(async (sql) => {
      const [first] = await sql.query<{ section: SectionId }>('UPDATE releases SET broken_at = now(), broken_detail = $2 WHERE id = $1 AND broken_at IS NULL RETURNING section', [id, detail]);
      if (first) {
        await this.record(sql, { actor: BACKGROUND_CHECK_ACTOR, action: 'broken', section: first.section, release: id, detail });
        return true;
      }
      return (await sql.query('UPDATE releases SET broken_detail = $2 WHERE id = $1 RETURNING id', [id, detail])).length > 0;
    });
  }

  /** The background check found the release whole again. */
  async clearBroken(id: string): Promise<void> {
    await this.db.transaction(async (sql) => {
      const [cleared] = await sql.query<{ section: SectionId }>('UPDATE releases SET broken_at = NULL, broken_detail = NULL WHERE id = $1 AND broken_at IS NOT NULL RETURNING section', [id]);
      if (cleared) await this.record(sql, { actor: BACKGROUND_CHECK_ACTOR, action: 'broken', section: cleared.section, release: id, detail: 'whole again: no longer broken' });
    });
  }

  // --- what the judge reads, and what the servers saw ----------------------

  /**
   * Both releases' counts kept for `canary` alone: per network what its
   * visitors reported since it started, and what the servers saw
   * themselves. A canary started again, even of the same release in the
   * same hour, is another canary: nothing of the one before is read.
   */
  canaryCounts(canary: Pick<Canary, 'id' | 'release'>, activeId: string): Promise<CanaryCounts> {
    return readCanaryCounts(this.db, canary.id, { active: activeId, candidate: canary.release.id });
  }

  /**
   * What a server saw of a section's release itself: a render of its node
   * build failing, its worker set aside, a 5xx of /api/contact to a visitor
   * of its cohort. Counted for the section's running canary when the release
   * is one of its two (the judge reads them); a build set aside that is the
   * active release's is also marked (status shows it) and audited, once,
   * and `running-again` (a server runs it again) lifts the mark.
   */
  async recordSignal(signal: ServerSignal): Promise<void> {
    const { section, releaseId, kind, detail } = signal;
    if (!isSection(section)) return;
    await this.db.transaction(async (sql) => {
      if (kind === 'running-again') {
        const [lifted] = await sql.query('DELETE FROM release_set_aside WHERE release_id = $1 RETURNING release_id', [releaseId]);
        if (lifted) await this.record(sql, { actor: 'server', action: 'set-aside', section, release: releaseId, detail: `rendered on the server again: ${detail}` });
        return;
      }
      await addSignal(sql, section, releaseId, kind);
      if (kind !== 'set-aside') return;
      const [active] = await sql.query<{ release_id: string }>(`SELECT release_id FROM (${ACTIVE_RELEASE_IDS}) a WHERE release_id = $1`, [releaseId]);
      if (!active) return;
      const [marked] = await sql.query(
        'INSERT INTO release_set_aside (release_id, detail) VALUES ($1, $2) ON CONFLICT (release_id) DO NOTHING RETURNING release_id',
        [releaseId, detail],
      );
      if (marked) await this.record(sql, { actor: 'server', action: 'set-aside', section, release: releaseId, detail: `the active release's node build is rendered in the browser only: ${detail}` });
    });
  }

  /** Deletes the canaries' per-network counts of hours older than `days` days (retention; a canary's end deletes its own at once). */
  async deleteCanaryCountsOlderThan(days: number, now: Date = new Date()): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      'WITH gone AS (DELETE FROM canary_network_counts WHERE hour < $1::timestamptz RETURNING 1) SELECT count(*)::integer AS n FROM gone',
      [new Date(now.getTime() - days * 86_400_000).toISOString()],
    );
    return rows[0]?.n ?? 0;
  }

  // --- audit log ----------------------------------------------------------

  /** Records what a caller did outside the store's own changes (a refused publish, a preview link). */
  async audit(entry: AuditInput): Promise<void> {
    await this.record(this.db, entry);
  }

  private async record(sql: Sql, entry: AuditInput): Promise<void> {
    await sql.query('INSERT INTO release_audit (actor, action, section, release, from_release, detail) VALUES ($1, $2, $3, $4, $5, $6)', [
      entry.actor,
      entry.action,
      entry.section ?? null,
      entry.release ?? null,
      entry.from ?? null,
      entry.detail ?? '',
    ]);
  }

  /** The audit log, newest first: of `sections` only (entries with no section, such as tokens, left out), or all. */
  async auditLog(options: { sections?: readonly SectionId[]; limit?: number } = {}): Promise<AuditEntry[]> {
    const limit = Math.max(1, Math.min(options.limit ?? 100, 10_000));
    const rows = await this.db.query<{ at: Date | string; actor: string; action: AuditAction; section: SectionId | null; release: string | null; from_release: string | null; detail: string }>(
      `SELECT at, actor, action, section, release, from_release, detail FROM release_audit
       ${options.sections ? 'WHERE section = ANY($2::text[])' : ''} ORDER BY seq DESC LIMIT $1`,
      options.sections ? [limit, [...options.sections]] : [limit],
    );
    return rows.map((row) => ({ at: iso(row.at), actor: row.actor, action: row.action, section: row.section, release: row.release, from: row.from_release, detail: row.detail }));
  }

  // --- tokens -------------------------------------------------------------

  /**
   * A new token, random, returned this once and stored as its sha256. With a
   * section and no scopes it is that section's token; with neither, an
   * integrator's (`releases`). With both, the scopes must act on that section
   * alone (its `section:` scope, and perhaps `messages`): a token filed under
   * one section must not act on another (400). With scopes alone, the
   * section is the one they act on, if one.
   */
  async createToken(options: { name: string; section?: SectionId | null; scopes?: readonly Scope[]; actor: string }): Promise<CreatedToken> {
    const { name, actor } = options;
    const reserved = reservedNameProblem(name);
    if (reserved) throw new ReleaseError('invalid', reserved, 'name');
    if (!TOKEN_NAME.test(name)) throw new ReleaseError('invalid', `a token's name is 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit`, 'name');
    const given = options.section ?? null;
    if (given !== null && !isSection(given)) throw new ReleaseError('not-found', `no section ${JSON.stringify(given)}`);
    const scopes = [...new Set(options.scopes ?? [given ? (`section:${given}` as const) : 'releases'])];
    if (scopes.length === 0 || !scopes.every(isScope)) throw new ReleaseError('invalid', `scopes are releases, messages or section:<${SECTION_IDS.join('|')}>`, 'scopes');
    const section = given ?? sectionOfScopes(scopes);
    if (given !== null && sectionOfScopes(scopes) !== given) {
      throw new ReleaseError('invalid', `scopes: ${scopes.join(', ')} disagree with section ${given}: a token of ${given} holds section:${given} (and perhaps messages), nothing that acts on another section`, 'scopes');
    }
    return this.db.transaction(async (sql) => {
      const token = randomBytes(32).toString('base64url');
      const inserted = await sql.query('INSERT INTO release_tokens (name, scopes, hash, created_by) VALUES ($1, $2::text[], $3, $4) ON CONFLICT DO NOTHING RETURNING id', [
        name,
        scopes,
        hashOf(token).toString('hex'),
        actor,
      ]);
      if (inserted.length === 0) throw new ReleaseError('conflict', `a token named ${name} exists; revoke it first`);
      await this.record(sql, { actor, action: 'token', section, detail: `created ${name} (${scopes.join(', ')})` });
      return { name, section, scopes, token };
    });
  }

  /** The live token named `name`, without its secret; undefined when there is none. */
  async token(name: string): Promise<{ name: string; scopes: Scope[]; owner: boolean } | undefined> {
    const [row] = await this.db.query<{ name: string; scopes: Scope[]; owner: boolean }>('SELECT name, scopes, owner FROM release_tokens WHERE name = $1 AND revoked_at IS NULL', [name]);
    return row;
  }

  /** Revokes the live token named `name`; false when there is none. */
  async revokeToken(name: string, actor: string): Promise<boolean> {
    return this.db.transaction(async (sql) => {
      const [revoked] = await sql.query<{ scopes: Scope[] }>('UPDATE release_tokens SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL RETURNING scopes', [name]);
      if (!revoked) return false;
      await this.record(sql, { actor, action: 'token', section: sectionOfScopes(revoked.scopes.filter(isScope)), detail: `revoked ${name}` });
      return true;
    });
  }

  /**
   * Who a bearer token is, or undefined. Looked up by its sha256 (an index
   * hit whatever the token), then the hashes compared in constant time;
   * PORTICO_CONTROL_TOKEN is compared the same way.
   */
  async authenticate(bearer: string | undefined): Promise<Actor | undefined> {
    if (!bearer) return undefined;
    const given = hashOf(bearer);
    if (this.environmentHash && timingSafeEqual(given, this.environmentHash)) return { name: ENVIRONMENT_ACTOR, scopes: ALL_SCOPES };
    const [row] = await this.db.query<{ name: string; scopes: Scope[]; hash: string }>('SELECT name, scopes, hash FROM release_tokens WHERE hash = $1 AND revoked_at IS NULL', [
      given.toString('hex'),
    ]);
    if (!row) return undefined;
    const stored = Buffer.from(row.hash, 'hex');
    return stored.length === given.length && timingSafeEqual(stored, given) ? { name: row.name, scopes: row.scopes.filter(isScope) } : undefined;
  }

  /**
   * At a fresh install's first start: when no owner token lives and
   * PORTICO_CONTROL_TOKEN is unset, creates one with every scope and writes
   * it to `<dataDir>/control-token` (0600), where the commands on this
   * machine read it. Answers the file's path when it wrote one.
   */
  async ensureOwnerToken(dataDir: string): Promise<string | undefined> {
    if (this.environmentHash) return undefined;
    return this.db.transaction(async (sql) => {
      const token = randomBytes(32).toString('base64url');
      const [inserted] = await sql.query<{ id: string }>(
        `INSERT INTO release_tokens (name, scopes, hash, owner, created_by) VALUES ($1, $2::text[], $3, true, 'server')
         ON CONFLICT DO NOTHING RETURNING id`,
        [OWNER_TOKEN_NAME, [...ALL_SCOPES], hashOf(token).toString('hex')],
      );
      if (!inserted) return undefined;
      const file = path.join(dataDir, CONTROL_TOKEN_FILE);
      // Written before the commit: a token that cannot be written is not created.
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
      try {
        writeFileSync(temporary, `${token}\n`, { mode: 0o600, flag: 'wx' });
        renameSync(temporary, file);
      } finally {
        rmSync(temporary, { force: true });
      }
      await this.record(sql, { actor: SERVER_ACTOR, action: 'token', detail: `created ${OWNER_TOKEN_NAME} (${ALL_SCOPES.join(', ')}) at first start, written to ${file}` });
      return file;
    });
  }

  // --- preview links and watching -----------------------------------------

  /** The key preview links are signed with: 32 random bytes made once, shared by every server on the database. */
  previewSecret(): Promise<Buffer> {
    this.secret ??= (async () => {
      await this.db.query("INSERT INTO release_settings (name, value) VALUES ('preview-secret', $1) ON CONFLICT (name) DO NOTHING", [randomBytes(32).toString('base64')]);
      const [row] = await this.db.query<{ value: string }>("SELECT value FROM release_settings WHERE name = 'preview-secret'");
      return Buffer.from(row!.value, 'base64');
    })();
    // A failure (the database down) is tried again next time, not kept.
    this.secret.catch(() => (this.secret = undefined));
    return this.secret;
  }

  /**
   * Calls `onChange(section)` after each activation or rollback on any
   * server: at once through LISTEN, and from a poll every `pollMs` that
   * catches what a lost notification missed. A listening connection that is
   * lost (the database restarted) is listened again every RELISTEN_MS until
   * the database answers, then the generations are read at once: the
   * changes made meanwhile are reported within a second of the database
   * answering, not at the next poll. A change may be reported more than
   * once; the caller reads `active()`.
   */
  async watch(onChange: (section: SectionId) => void, options: { pollMs?: number } = {}): Promise<{ close(): Promise<void> }> {
    const generations = async () => new Map((await this.db.query<{ section: SectionId; generation: string }>('SELECT section, generation::text AS generation FROM release_sections')).map((row) => [row.section, row.generation]));
    // With the database away at first, every section counts as changed at the first read that reaches it.
    let known = await generations().catch(() => new Map<SectionId, string>());
    let listening: Listening | undefined;
    let closed = false;

    // One read of the generations at a time; one asked for meanwhile runs after it, on fresh data.
    let reading: Promise<void> | undefined;
    let readAgain = false;
    const catchUp = (): Promise<void> => {
      if (reading) {
        readAgain = true;
        return reading;
      }
      reading = (async () => {
        try {
          const now = await generations();
          for (const [section, generation] of now) if (known.get(section) !== generation && isSection(section)) onChange(section);
          known = now;
        } catch {
          // The database is away: what was last known stays served; the next read tries again.
        }
      })().finally(() => {
        reading = undefined;
        if (readAgain && !closed) {
          readAgain = false;
          void catchUp();
        }
      });
      return reading;
    };

    // One attempt to listen at a time; a lost connection is tried again every RELISTEN_MS.
    let listenAttempt: Promise<boolean> | undefined;
    let retry: NodeJS.Timeout | undefined;
    const listen = (): Promise<boolean> =>
      (listenAttempt ??= (async () => {
        if (closed) return false;
        if (listening?.alive) return true;
        await listening?.close().catch(() => undefined);
        try {
          listening = await this.db.listen(
            RELEASES_CHANNEL,
            (payload) => {
              if (isSection(payload)) onChange(payload);
            },
            relistenSoon,
          );
          return true;
        } catch {
          listening = undefined;
          return false;
        }
      })().finally(() => (listenAttempt = undefined)));
    function relistenSoon(): void {
      if (closed || retry) return;
      retry = setTimeout(() => {
        retry = undefined;
        void listen().then((listens) => {
          // Listening again: what changed while nobody listened is read now.
          if (listens) void catchUp();
          else relistenSoon();
        });
      }, RELISTEN_MS);
      retry.unref();
    }

    if (!(await listen())) relistenSoon();
    const poll = async () => {
      if (closed) return;
      if (!(await listen())) relistenSoon();
      await catchUp();
    };
    const timer = setInterval(() => void poll(), options.pollMs ?? WATCH_POLL_MS);
    timer.unref();
    return {
      async close() {
        closed = true;
        clearInterval(timer);
        clearTimeout(retry);
        await listenAttempt?.catch(() => undefined);
        await listening?.close().catch(() => undefined);
      },
    };
  }
}

/** A release's state in its section: what visitors get first, then whether it is safe to go back to. */
function stateOf(release: StoredRelease, stack: readonly string[], candidates: ReadonlySet<string>): ReleaseState {
  if (stack[0] === release.id) return 'active';
  if (candidates.has(release.id)) return 'candidate';
  if (release.broken) return 'broken';
  if (stack[1] === release.id) return 'previous';
  return 'available';
}
