import type { z } from 'zod';
import type { SectionId } from '@portico/contract/sections';
import type { Logger } from '@portico/platform/logging';
import { CONFIG_BASELINE, noVisits, type HealthSource, type ReleaseHealth } from '../release';
import type { CanaryCounts } from '../canary/canary-counts';
import { countedHealth } from '../canary/decide-canary';
import type { ReleaseStore } from '../store/release-store';
import type { SectionState } from '../store/section-states';
import { DEFAULT_HEALTH_WINDOW_HOURS, type judgedSchema, type shownSectionSchema } from '@portico/control-contract';

/** A section as `GET /api/sections` and the canary routes answer it. */
export type ShownSection = z.input<typeof shownSectionSchema>;

export interface SectionAnswersOptions {
  store: ReleaseStore;
  /** Each release's health from the visit reports; none: every section's `health` is `{}`. */
  health?: HealthSource;
  /** Each section's URL in the operator's config.json. */
  configuredRemotes?: () => Promise<Partial<Record<SectionId, string>>>;
  /** A part of an answer left out (the health, the judge's reads): warn, the rest answered. */
  log: Logger;
}

/** A section's state, or an empty one (no release yet) for a section the store has no row of. */
const stateOf = (states: Partial<Record<SectionId, SectionState>>, section: SectionId): SectionState =>
  states[section] ?? { active: null, previous: null, since: null, by: null };

/**
 * Each section's state as `GET /api/sections` answers it (and the canary
 * routes, for theirs): the store's state, the releases' health, what the
 * canary's judge reads, and the section's URL in config.json.
 */
export async function sectionAnswers(
  options: SectionAnswersOptions,
  sections: readonly SectionId[],
  hours = DEFAULT_HEALTH_WINDOW_HOURS,
): Promise<Partial<Record<SectionId, ShownSection>>> {
  const { store, log } = options;
  const [states, configured, catalogue] = await Promise.all([
    store.releases.sectionStates(sections),
    options.configuredRemotes?.().catch(() => ({})) ?? Promise.resolve({}),
    store.sections.list({ retired: true }),
  ]);
  const entries = new Map(catalogue.map((entry) => [entry.id as string, entry]));
  // The health failing must not fail the answer: a canary route answers after its change is committed.
  const healths = await Promise.all(
    sections.map((section) =>
      healthOf(options, section, stateOf(states, section), hours).then(
        ({ health, since }) => ({ health, healthSince: since.toISOString() }),
        (error: unknown) => {
          log.warn({ err: error, section }, "control: the releases' health cannot be read; answered without it");
          return { health: {}, healthError: `the health of the releases cannot be read now: ${(error as Error).message}` };
        },
      ),
    ),
  );
  const judged = await Promise.all(sections.map((section) => judgedOf(options, section, stateOf(states, section))));
  const answer: Partial<Record<SectionId, ShownSection>> = {};
  sections.forEach((section, index) => {
    const configuredUrl = (configured as Partial<Record<SectionId, string>>)[section];
    const { counted, ...reads } = judged[index]!;
    const health = healths[index]!;
    const { id: _id, retired, ...entry } = entries.get(section)!;
    answer[section] = {
      ...stateOf(states, section),
      // The section's catalogue entry beside its state (labels, origins, order, markets, hidden, builtIn, its grant).
      ...entry,
      ...(retired ? { retired } : {}),
      ...health,
      ...(counted ? { health: asCounted(health.health, counted) } : {}),
      ...reads,
      ...(configuredUrl ? { configured: configuredUrl } : {}),
    };
  });
  return answer;
}

/** What a canary is judged against: the active release, or with none config.json's URL (CONFIG_BASELINE). */
const baselineOf = (state: SectionState): string => state.active?.id ?? CONFIG_BASELINE;

/** The figures the judge bounds, of a health. */
const figures = ({ visits, failures, failureRate, lcpP75, inpP75 }: ReleaseHealth) => ({ visits, failures, failureRate, lcpP75, inpP75 });

/**
 * While a canary runs, each of its releases' health as the judge counts it,
 * the reports as received beside (`raw`) where they differ: forged reports
 * the bounds left out must not stay in what operators read.
 */
function asCounted(reported: Record<string, ReleaseHealth>, counted: Record<string, ReleaseHealth>): Record<string, ReleaseHealth> {
  return Object.fromEntries(
    Object.entries(reported).map(([id, health]) => {
      const judged = counted[id];
      if (!judged) return [id, health];
      // The health read bounded the canary's hours already; `raw` (when it has one) is still the reports as received.
      const { raw: received, ...rest } = health;
      const raw = received ?? figures(health);
      const same = JSON.stringify(raw) === JSON.stringify(figures(judged));
      return [id, { ...rest, ...figures(judged), ...(same ? {} : { raw }) }];
    }),
  );
}

/**
 * While a canary runs, what its judge reads of both releases, by id: the
 * networks their counted visits came from, and what the servers saw
 * themselves (render failures, set aside, 5xx of /api/contact, broken).
 * `counted` is both releases' health as the judge counts it (what `health` then shows).
 */
async function judgedOf(
  { store, log }: SectionAnswersOptions,
  section: SectionId,
  state: SectionState,
): Promise<{ judged?: Record<string, z.input<typeof judgedSchema>>; counted?: Record<string, ReleaseHealth> }> {
  if (!state.canary || !state.candidate) return {};
  const baseline = baselineOf(state);
  try {
    const counts = await store.canaries.counts({ id: state.canary.id, release: state.candidate }, baseline);
    const side = ({ networks, signals }: CanaryCounts['active']) => ({ networks: networks.filter((network) => network.visits > 0).length, ...signals });
    const counted = countedHealth(state.canary, counts);
    return {
      judged: { [baseline]: side(counts.active), [state.candidate.id]: side(counts.candidate) },
      counted: { [baseline]: counted.active, [state.candidate.id]: counted.candidate },
    };
  } catch (error) {
    log.warn({ err: error, section }, 'control: what the judge reads of a canary cannot be read; answered without it');
    return {};
  }
}

/**
 * The health of the section's active release and its candidate, by id:
 * while a canary runs over its window (since it started), the one the
 * judge compares, else over the last `hours`. A release with no visits
 * reported shows zeros.
 */
async function healthOf(
  { health }: SectionAnswersOptions,
  section: SectionId,
  state: SectionState,
  hours: number,
): Promise<{ health: Record<string, ReleaseHealth>; since: Date }> {
  const ids = [state.canary ? baselineOf(state) : state.active?.id, state.candidate?.id].filter((id): id is string => id !== undefined);
  const since = state.canary ? new Date(state.canary.startedAt) : new Date(Date.now() - hours * 3_600_000);
  if (!health || ids.length === 0) return { health: {}, since };
  const found = await health(section, ids, since);
  return { health: Object.fromEntries(ids.map((id) => [id, found[id] ?? noVisits()])), since };
}
