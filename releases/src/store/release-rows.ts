import type { SectionId } from '@portico/contract/sections';
import type { Sql } from '@portico/platform/database';
import type { Canary, CheckResult, Release } from '../release';
import { ReleaseError } from './release-error';

// The rows every repository of the release store reads, and how a row
// becomes the shapes the control API answers: written once here, so a
// release or a canary reads the same whichever repository read it.

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

export interface ReleaseRow {
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

export const RELEASE_COLUMNS =
  'r.id, r.section, r.manifest_url, r.integrity, r.version, r.build_id, r.created_at, r.created_by, r.note, r.checks, r.broken_at, r.broken_detail';
/** Each section's active release id: its latest activation not popped by a rollback. */
export const ACTIVE_RELEASE_IDS = 'SELECT DISTINCT ON (section) release_id FROM release_activations WHERE popped_at IS NULL ORDER BY section, seq DESC';

export const iso = (value: Date | string) => new Date(value).toISOString();

/** `a; b`, leaving out what is empty: several facts in one audit detail. */
export const joined = (...parts: (string | null | undefined)[]) => parts.filter((part) => part).join('; ');

export function toStored(row: ReleaseRow): StoredRelease {
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

export function shown(release: StoredRelease): ShownRelease {
  const { checks: _checks, broken, ...fields } = release;
  return broken ? { ...fields, broken } : fields;
}

/** The release `id` of `section`: 404 when there is none, 409 when it is another section's. */
export async function releaseOf(sql: Sql, section: SectionId, id: string): Promise<void> {
  const [row] = await sql.query<{ section: SectionId }>('SELECT section FROM releases WHERE id = $1', [id]);
  if (!row) throw new ReleaseError('not-found', `no release ${id}`);
  if (row.section !== section) throw new ReleaseError('conflict', `${id} is a release of ${row.section}, not of ${section}`);
}

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
export interface StoredCanary {
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

/** The canaries running now (of `only`, or of every section), by section, as `sql` sees them. */
export async function canariesIn(sql: Sql, only?: SectionId): Promise<Map<SectionId, StoredCanary>> {
  const rows = await sql.query<CanaryRow>(
    `SELECT ${CANARY_COLUMNS} FROM release_canaries c JOIN releases r ON r.id = c.release_id ${only ? 'WHERE c.section = $1' : ''}`,
    only ? [only] : [],
  );
  return new Map(rows.map((row) => [row.section, toCanary(row)]));
}
