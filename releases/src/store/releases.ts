import type { SectionId } from '@portico/contract/sections';
import type { Database } from '@portico/platform/database';
import { addSignal, type SignalKind } from '../canary/canary-counts';
import type { ActiveReleases, CheckResult, ReleaseState, ServedState } from '../release';
import { BACKGROUND_CHECK_ACTOR, isSection, SERVER_ACTOR } from '../scopes';
import { recordAudit } from './audit-log';
import { catalogueIn } from './section-catalogue';
import { grantsIn } from './section-grants';
import { needLiveSection } from './section-lock';
import { ACTIVE_RELEASE_IDS, iso, joined, RELEASE_COLUMNS, shown, toStored, type ReleaseRow, type ShownRelease, type StoredRelease } from './release-rows';
import { stackTops, statesOf, type SectionState } from './section-states';

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

/** What a server saw itself of a section's release (docs/releases.md, "Server-side signals"). */
export interface ServerSignal {
  section: SectionId;
  releaseId: string;
  kind: SignalKind | 'running-again';
  /** For the log and the audit: why (a worker's last death, a render's error). */
  detail: string;
}

/**
 * The releases, checked builds that never change once published, and what
 * every server serves of them: each section's active release and canary,
 * and the marks a release gets after its publish (broken, set aside).
 */
export class Releases {
  constructor(private readonly db: Database) {}

  /** Stores a checked release; the same URL with the same integrity answers the existing one (`created` false). */
  async publish(input: PublishInput): Promise<{ release: StoredRelease; created: boolean }> {
    return this.db.transaction(async (sql) => {
      // An unknown section 404, a retired one 409: checked again here, where a retirement cannot come between.
      await needLiveSection(sql, input.section);
      const [inserted] = await sql.query<ReleaseRow>(
        `INSERT INTO releases AS r (section, manifest_url, integrity, version, build_id, created_by, note, checks)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)
         ON CONFLICT (section, manifest_url, integrity) DO NOTHING
         RETURNING ${RELEASE_COLUMNS}`,
        [input.section, input.manifestUrl, input.integrity, input.version, input.buildId, input.createdBy, input.note ?? null, JSON.stringify(input.checks)],
      );
      if (inserted) {
        const release = toStored(inserted);
        await recordAudit(sql, {
          actor: input.createdBy,
          action: 'publish',
          section: input.section,
          release: release.id,
          detail: `build ${release.buildId}, version ${release.version}, ${release.manifestUrl}`,
          facts: { kind: 'publish', build: release.buildId, version: release.version, manifestUrl: release.manifestUrl },
        });
        return { release, created: true };
      }
      const [existing] = await sql.query<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM releases r WHERE section = $1 AND manifest_url = $2 AND integrity = $3`, [
        input.section,
        input.manifestUrl,
        input.integrity,
      ]);
      if (!existing) throw new Error(`the release of ${input.manifestUrl} vanished while being published`);
      const release = toStored(existing);
      await recordAudit(sql, {
        actor: input.createdBy,
        action: 'publish',
        section: input.section,
        release: release.id,
        // A release is immutable, its note with it: a note given again is kept here, in the audit log, not written over the first.
        detail: joined(
          'published again: the same URL with the same bytes, the same release',
          input.note && input.note !== release.note
            ? `the note "${input.note}" (the release keeps ${release.note === null ? 'none' : `"${release.note}"`})`
            : null,
        ),
        facts: { kind: 'republish', givenNote: input.note && input.note !== release.note ? input.note : null, releaseNote: release.note },
      });
      return { release, created: false };
    });
  }

  async get(id: string): Promise<StoredRelease | undefined> {
    const [row] = await this.db.query<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM releases r WHERE id = $1`, [id]);
    return row && toStored(row);
  }

  /** The releases of `sections` (every section's, retired ones' included, by default), newest first, each with its state. */
  async list(options: { sections?: readonly string[] } = {}): Promise<ListedRelease[]> {
    const sections = options.sections === undefined ? null : [...options.sections];
    const [rows, stacks, candidates] = await Promise.all([
      this.db.query<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM releases r WHERE $1::text[] IS NULL OR section = ANY($1::text[]) ORDER BY n DESC`, [sections]),
      stackTops(this.db),
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
   * section in a canary, its candidate and share, in one statement, so one
   * snapshot: a promotion is never seen half done (the candidate both
   * active and in a canary, or neither). Beside them the catalogue in tab
   * order (retired sections left out, and their releases with them) and
   * the grants set in the store.
   */
  async served(): Promise<ServedState> {
    const rows = await this.db.query<ReleaseRow & { percent: number | null; canary_id: string | null; started_at: Date | string | null }>(
      `SELECT NULL::integer AS percent, NULL::bigint AS canary_id, NULL::timestamptz AS started_at, ${RELEASE_COLUMNS} FROM (${ACTIVE_RELEASE_IDS}) a JOIN releases r ON r.id = a.release_id
       UNION ALL
       SELECT c.percent, c.id, c.started_at, ${RELEASE_COLUMNS} FROM release_canaries c JOIN releases r ON r.id = c.release_id`,
    );
    // The entries as the page reads them: their order is the list's.
    const sections = (await catalogueIn(this.db)).map(({ order: _order, retired: _retired, policy: _policy, ...entry }) => entry);
    const served: ServedState = { active: {}, canaries: {}, grants: await grantsIn(this.db), sections };
    const live = new Set<string>(sections.map((entry) => entry.id));
    for (const row of rows) {
      if (!live.has(row.section)) continue;
      const { checks: _checks, broken: _broken, ...release } = toStored(row);
      if (row.percent === null) served.active[row.section] = release;
      else served.canaries[row.section] = { release, percent: Number(row.percent), id: Number(row.canary_id), startedAt: iso(row.started_at!) };
    }
    return served;
  }

  /** Each of `sections`' (or one section's) active and previous release, every live section's by default, and since when and by whom the active one is. */
  async sectionStates(sections?: string | readonly string[]): Promise<Record<SectionId, SectionState>> {
    if (typeof sections === 'string') return statesOf(this.db, [sections]);
    return statesOf(this.db, sections ?? (await catalogueIn(this.db)).map((entry) => entry.id));
  }

  /** Marks a release found broken by the background check (audited the first time); false when there is no such release. */
  async markBroken(id: string, detail: string): Promise<boolean> {
    return this.db.transaction(async (sql) => {
      const [first] = await sql.query<{ section: SectionId }>(
        'UPDATE releases SET broken_at = now(), broken_detail = $2 WHERE id = $1 AND broken_at IS NULL RETURNING section',
        [id, detail],
      );
      if (first) {
        await recordAudit(sql, {
          actor: BACKGROUND_CHECK_ACTOR,
          action: 'broken',
          section: first.section,
          release: id,
          detail,
          facts: { kind: 'broken', reason: detail },
        });
        return true;
      }
      return (await sql.query('UPDATE releases SET broken_detail = $2 WHERE id = $1 RETURNING id', [id, detail])).length > 0;
    });
  }

  /** The background check found the release whole again. */
  async clearBroken(id: string): Promise<void> {
    await this.db.transaction(async (sql) => {
      const [cleared] = await sql.query<{ section: SectionId }>(
        'UPDATE releases SET broken_at = NULL, broken_detail = NULL WHERE id = $1 AND broken_at IS NOT NULL RETURNING section',
        [id],
      );
      if (cleared)
        await recordAudit(sql, {
          actor: BACKGROUND_CHECK_ACTOR,
          action: 'broken',
          section: cleared.section,
          release: id,
          detail: 'whole again: no longer broken',
          facts: { kind: 'broken' },
        });
    });
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
        if (lifted)
          await recordAudit(sql, {
            actor: SERVER_ACTOR,
            action: 'set-aside',
            section,
            release: releaseId,
            detail: `rendered on the server again: ${detail}`,
            facts: { kind: 'set-aside', again: true, reason: detail },
          });
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
      if (marked)
        await recordAudit(sql, {
          actor: SERVER_ACTOR,
          action: 'set-aside',
          section,
          release: releaseId,
          detail: `the active release's node build is rendered in the browser only: ${detail}`,
          facts: { kind: 'set-aside', again: false, reason: detail },
        });
    });
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
