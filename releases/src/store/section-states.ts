import type { SectionId } from '@portico/contract/sections';
import type { Sql } from '@portico/platform/database';
import type { CanarySettings } from '../canary/canary-settings';
import { canariesIn, iso, RELEASE_COLUMNS, shown, toStored, type ReleaseRow, type ShownRelease, type StateRelease, type StoredRelease } from './release-rows';

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

/** The answer to an activation or a rollback. */
export interface SectionSwitch {
  section: SectionId;
  /** Null: the section serves config.json's URL. */
  active: ShownRelease | null;
  /** What a rollback without a release would make active (null: config.json's URL); with no active release, the release just replaced. */
  previous: ShownRelease | null;
}

/** The two top entries of every section's stack: the active release and the one a rollback goes back to. */
export async function stackTops(sql: Sql): Promise<Map<SectionId, string[]>> {
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

/** Each of `sections`' active and previous release, since when and by whom the active one is, and its canary, as `sql` sees them. */
export async function statesOf(sql: Sql, sections: readonly string[]): Promise<Record<SectionId, SectionState>> {
  const [tops, changes] = await Promise.all([
    stackTops(sql),
    sql.query<{ section: SectionId; changed_at: Date | string | null; changed_by: string | null }>(
      'SELECT section, changed_at, changed_by FROM release_sections',
    ),
  ]);
  // Not a third at once: in a transaction `sql` is one connection, and node-postgres queues (and warns) past two.
  const canaries = await canariesIn(sql);
  const ids = [...tops.values()].flat();
  const releases = new Map<string, StoredRelease>();
  if (ids.length > 0) {
    for (const row of await sql.query<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM releases r WHERE id = ANY($1::text[])`, [ids]))
      releases.set(row.id, toStored(row));
  }
  const marks = new Map(
    (await sql.query<{ release_id: string; at: Date | string; detail: string }>('SELECT release_id, at, detail FROM release_set_aside')).map((row) => [
      row.release_id,
      { at: iso(row.at), detail: row.detail },
    ]),
  );
  const withMark = (release: ShownRelease): StateRelease => (marks.has(release.id) ? { ...release, setAside: marks.get(release.id)! } : release);
  const pick = (id: string | undefined) => {
    const release = id === undefined ? undefined : releases.get(id);
    return release ? withMark(shown(release)) : null;
  };
  const states = {} as Record<SectionId, SectionState>;
  for (const section of sections as readonly SectionId[]) {
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

/** The section's active and previous release after a change, as the change's transaction sees them. */
export async function switchOf(sql: Sql, section: SectionId): Promise<SectionSwitch> {
  const { active = null, previous = null } = (await statesOf(sql, [section]))[section] ?? {};
  return { section, active, previous };
}
