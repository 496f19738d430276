import type { SectionId } from '@portico/contract/sections';
import { BUILT_IN_SECTIONS } from '@portico/contract/section-entries';
import type { Logger } from '@portico/platform/logging';
import { runPublishChecks } from '../checks/publish-checks';
import type { ServedState } from '../release';
import type { Releases } from '../store/releases';
import type { StoredRelease } from '../store/release-rows';
import { systemClock, type JobClock } from './job-clock';

/** How often the served releases' files are checked again (and first, this long after start: not while the server warms up). */
export const RECHECK_EVERY_MS = 10 * 60_000;
const FIRST_RECHECK_MS = 30_000;

/** One release's files checked again: a problem in words, or none. `origins`: an added section's own (a built-in one's come from config.json). */
export type StillServed = (release: StoredRelease, origins: readonly string[] | undefined) => Promise<string | undefined>;

export interface ReleaseRecheckOptions {
  store: { releases: Pick<Releases, 'served' | 'get' | 'markBroken' | 'clearBroken'> };
  /** The check (stillServedBy on a server; a test's fake). */
  stillServed: StillServed;
  /** A release found broken: warn; a round that fails: error. */
  log: Logger;
  /** The time and the timers (the system's by default; a test's hand-turned one). */
  clock?: JobClock;
}

export interface ReleaseRecheck {
  /** One round now, after any round under way (a failure is logged, not thrown). */
  recheckNow(): Promise<void>;
  /** Stops the timer, once the round under way is done. */
  close(): Promise<void>;
}

/** The names of the checks that say whether a released build's files are still there, unchanged, and still load in the page's browser. */
const STILL_THERE = new Set(['reachable', 'manifest', 'integrity', 'browser', 'node-build']);

/**
 * The files' check of a release already published: the publish checks that
 * say the files are still there and unchanged (no render: the workers
 * serving it would have said), from the origins allowed now, as the page's
 * browser at `pageOrigin` would fetch them.
 */
export function stillServedBy(options: { allowedOrigins: (section: SectionId) => Promise<string[]>; pageOrigin: string }): StillServed {
  return async (release, origins) => {
    const result = await runPublishChecks({
      section: release.section,
      manifestUrl: release.manifestUrl,
      allowedOrigins: origins ?? (await options.allowedOrigins(release.section)),
      pageOrigin: options.pageOrigin,
    });
    if (result.refusedOrigin) return `its origin ${result.refusedOrigin} is no longer allowed by config.json`;
    const failed = result.checks.filter((check) => STILL_THERE.has(check.name) && !check.ok);
    if (failed.length > 0) return failed.map((check) => `${check.name}: ${check.detail}`).join('; ');
    if (result.manifest && result.manifest.integrity !== release.integrity)
      return 'its manifest is not the bytes that were published (the pin no longer matches)';
    return undefined;
  };
}

/**
 * Checks the files of every release served (each section's active one and
 * its canary's candidate) again every RECHECK_EVERY_MS: a build removed or
 * changed on its host is marked broken (audited by the store, once; a
 * broken candidate is then rolled back by the canary judge), and one whole
 * again is cleared. Every server runs it; a mark another server made
 * already is not made twice.
 */
export function startReleaseRecheck(options: ReleaseRecheckOptions): ReleaseRecheck {
  const { store, log } = options;
  const round = async () => {
    const served = await store.releases.served().catch((): ServedState => ({ active: {}, canaries: {} }));
    const { active, canaries, sections = BUILT_IN_SECTIONS } = served;
    const checked = sections.flatMap(({ id, builtIn, origins }) => [
      ...(active[id] ? [{ id, role: 'active', releaseId: active[id].id, origins: builtIn ? undefined : origins }] : []),
      ...(canaries[id] ? [{ id, role: 'candidate', releaseId: canaries[id].release.id, origins: builtIn ? undefined : origins }] : []),
    ]);
    for (const { id, role, releaseId, origins } of checked) {
      const release = await store.releases.get(releaseId).catch(() => undefined);
      if (!release) continue;
      const problem = await options.stillServed(release, origins).catch((error: unknown) => `the check failed: ${(error as Error).message}`);
      if (problem && !release.broken) {
        await store.releases.markBroken(release.id, problem);
        log.warn({ section: id, role, release: release.id, problem }, `releases: the ${role} ${id} release ${release.id} is broken`);
      } else if (!problem && release.broken) {
        await store.releases.clearBroken(release.id);
      }
    }
  };
  let rounds: Promise<void> = Promise.resolve();
  const recheckNow = () =>
    (rounds = rounds.then(round).catch((error: unknown) => log.error({ err: error }, 'releases: the background check failed (tried again later)')));
  const stop = (options.clock ?? systemClock).every(RECHECK_EVERY_MS, () => void recheckNow(), FIRST_RECHECK_MS);
  return {
    recheckNow,
    async close() {
      stop();
      await rounds;
    },
  };
}
