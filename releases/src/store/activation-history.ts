import { isBuiltInSection } from '@portico/contract/section-entries';
import type { SectionId } from '@portico/contract/sections';
import type { Database, Sql } from '@portico/platform/database';
import type { AuditFacts } from '@portico/control-contract';
import type { AuditAction } from '../release';
import { endCanary } from '../health/counted-reports';
import { ReleaseError } from './release-error';
import { joined, RELEASE_COLUMNS, releaseOf, shown, toStored, type ReleaseRow } from './release-rows';
import { announce, lockedSection, pushActivation, type StackEntry } from './section-lock';
import { switchOf, type SectionSwitch } from './section-states';

/** The audit detail of a rollback that leaves a section with no release. */
const CONFIG_URL_AGAIN = "back to config.json's URL: no release is active";

/** What an activation or a rollback did, for its audit entry: its English detail (the note in it), and the facts and the note apart. */
interface Switched {
  action: AuditAction;
  release: string | null;
  from: string | null;
  detail: string;
  note: string | null | undefined;
  facts: Extract<AuditFacts, { kind: 'activate' | 'rollback' }>;
}

/**
 * Each section's activation history, a stack whose top is the active
 * release: an activation pushes, a rollback pops. Every change is made
 * under the section's lock, audited and announced (section-lock.ts).
 */
export class ActivationHistory {
  constructor(private readonly db: Database) {}

  /** Makes `releaseId` the section's active release: pushed on its history (already active: nothing changes). */
  activate(section: SectionId, releaseId: string, actor: string, note?: string | null): Promise<SectionSwitch> {
    return this.change(section, actor, async (sql, stack) => {
      await releaseOf(sql, section, releaseId);
      const from = stack[0]?.release_id ?? null;
      if (from !== releaseId) await pushActivation(sql, section, releaseId, actor);
      return {
        action: 'activate',
        release: releaseId,
        from,
        detail: note ?? (from === releaseId ? 'already active' : ''),
        note,
        facts: { kind: 'activate', again: from === releaseId },
      };
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
        // An added section has no config.json URL to go back to: its only activation stays until another release replaces it.
        if (!below && !isBuiltInSection(section))
          throw new ReleaseError(
            'conflict',
            `${section} has no release before ${top.release_id} to roll back to (an added section has no config.json URL): activate another release`,
          );
        await sql.query('UPDATE release_activations SET popped_at = now() WHERE seq = $1', [top.seq]);
        return {
          action: 'rollback',
          release: below?.release_id ?? null,
          from: top.release_id,
          detail: below ? (note ?? '') : joined(note, CONFIG_URL_AGAIN),
          note,
          facts: { kind: 'rollback' },
        };
      }
      await releaseOf(sql, section, releaseId);
      if (top?.release_id === releaseId) throw new ReleaseError('conflict', `${releaseId} is already the active release of ${section}`);
      const target = stack.find((entry) => entry.release_id === releaseId);
      if (target) {
        await sql.query('UPDATE release_activations SET popped_at = now() WHERE section = $1 AND popped_at IS NULL AND seq > $2', [section, target.seq]);
      } else {
        await pushActivation(sql, section, releaseId, actor);
      }
      return { action: 'rollback', release: releaseId, from: top?.release_id ?? null, detail: note ?? '', note, facts: { kind: 'rollback' } };
    });
  }

  /**
   * One change of a section's active release (an activation or a
   * rollback), under the section's lock, audited and announced. It ends
   * the section's canary, if one runs: the operator has said what every
   * visitor gets, and the canary was judged against the release that was
   * active. The audit entry's detail says so.
   */
  private change(section: SectionId, actor: string, work: (sql: Sql, stack: StackEntry[]) => Promise<Switched>): Promise<SectionSwitch> {
    return lockedSection(this.db, section, async (sql, { stack, canary }) => {
      const { note, facts, ...done } = await work(sql, stack);
      let detail = done.detail;
      let endedCanary: { release: string; percent: number } | undefined;
      if (canary) {
        await endCanary(sql, section, canary.canary);
        endedCanary = { release: canary.canary.release.id, percent: canary.canary.percent };
        detail = joined(detail, `ended the canary of ${endedCanary.release} (${endedCanary.percent} % of visits)`);
      }
      // The detail in English as before (the CLI, the CSV, an older console); the facts and the typed note beside it for a console to word.
      await announce(sql, section, { actor, ...done, detail, note, facts: { ...facts, ...(endedCanary && { endedCanary }) } }, true);
      const switched = await switchOf(sql, section);
      // Back on config.json's URL, no release is a rollback's target: the answer names the release it replaced instead.
      if (switched.active === null && done.from !== null) {
        const [replaced] = await sql.query<ReleaseRow>(`SELECT ${RELEASE_COLUMNS} FROM releases r WHERE id = $1`, [done.from]);
        return { ...switched, previous: replaced ? shown(toStored(replaced)) : null };
      }
      return switched;
    });
  }
}
