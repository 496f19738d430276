import path from 'node:path';

/**
 * Module Federation's own semver module, which holds `satisfy`: what the
 * manifest check (@portico/contract/manifest-check) imports from the
 * runtime. A build with no use for the rest of the runtime (the compiled
 * server, the server-rendered page's islands) points
 * `@module-federation/enhanced/runtime` here, so ranges are matched exactly
 * as the runtime matches them without loading the runtime. Found as the
 * contract's import of the runtime finds the runtime's core; a new version
 * that moves the file fails the build.
 */
export function federationSemverPath(repoRoot: string): string {
  const from = (request: string, file: string) => require.resolve(request, { paths: [path.dirname(file)] });
  const enhanced = from('@module-federation/enhanced/runtime', path.join(repoRoot, 'contract/package.json'));
  const core = from('@module-federation/runtime-core', from('@module-federation/runtime', enhanced));
  return path.join(path.dirname(core), 'utils/semver/index.js');
}
