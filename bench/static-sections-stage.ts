import type { RenderingStage, StageSources } from '@portico/server';

/**
 * The benchmark's extra static sections (the "fed SSR + N static" column,
 * bench/README.md): manifests of more sections that declare themselves
 * static, their node builds run in Home's sandboxed worker beside Home's and
 * their HTML put after Home's in its panel, as the client-rendered "+N
 * remotes" build puts them. The browser is never told of them: what a
 * static section costs a visitor is its HTML. One that is not static is left
 * out, and all are while Home is not rendered on the server or is not
 * static itself (its island would hydrate over them).
 *
 * A stage the benchmark's own server program adds
 * (serve-static-sections.ts): their builds are pinned by no config.json, so
 * `npm run serve` has no way to run them.
 */
export function staticSections(manifestUrls: readonly string[]): RenderingStage {
  const leftOut = (url: string) => `the extra section ${url} is left out`;
  /** The node build (its hash) of the static section at `url`; undefined while it is unread, and for one that is not static. */
  const staticBuild = (url: string, sources: StageSources): string | undefined => {
    const manifest = sources.manifest(url, 'home');
    if (!manifest) return undefined;
    if (manifest.hydration.mode !== 'static') {
      sources.report(`${leftOut(url)}: only a static section can be an extra (it is never hydrated)`);
      return undefined;
    }
    return 'integrity' in manifest.nodeEntry ? manifest.nodeEntry.integrity : undefined;
  };
  return {
    description: `${manifestUrls.length} static section(s) after Home, for the benchmark`,
    watch: (sources) => {
      for (const url of manifestUrls) sources.manifest(url, 'home');
    },
    plan: async (section, sources) => {
      if (section !== 'home') return [];
      const builds = await Promise.all(manifestUrls.map((url) => (staticBuild(url, sources) === undefined ? undefined : sources.build(url, 'home'))));
      return builds.filter((build) => build !== undefined);
    },
    parts: (page, sources) => {
      if (page.builds.home === undefined || page.hydration.home?.mode !== 'static') return [];
      return manifestUrls.flatMap((url) => {
        const build = staticBuild(url, sources);
        return build === undefined ? [] : [{ section: 'home' as const, failure: leftOut(url), result: page.render('home', build, leftOut(url)) }];
      });
    },
  };
}
