import type { SectionSignal } from './ssr/server-rendering';
import { servedNow, type ServingState } from './http/serving-state';

/**
 * What the server rendering sees of a section's build (a render failing,
 * its worker set aside or running again), told to the release store for
 * the releases that build is: a render failing counts only for a canary's
 * judge; a build set aside (or running again) is also the active release's
 * mark. Both what is served and what is being warmed to be count (a
 * canary's candidate is first rendered then).
 */
export function forwardSignal(state: ServingState): (signal: SectionSignal) => void {
  return (signal) => {
    if (state.ssr) state.ssr.onSignal?.(signal);
    const { section, pins, kind, detail } = signal;
    const states = [servedNow(state), ...(state.upcoming ? [state.upcoming] : [])];
    if (!state.signal || (kind === 'render-failed' && !states.some((served) => served.canaries[section]))) return;
    const releases = new Map(
      states.flatMap((served) => [served.active[section], served.canaries[section]?.release]).flatMap((release) => (release ? [[release.id, release]] : [])),
    );
    for (const release of releases.values()) {
      if (!pins.includes(release.integrity)) continue;
      state
        .signal({ section, releaseId: release.id, kind, detail })
        .catch((error: unknown) =>
          state.log.error(`releases: what this server saw of ${release.id} (${kind}) could not be stored: ${(error as Error).message}`),
        );
    }
  };
}
