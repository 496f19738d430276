import { satisfy } from '@module-federation/enhanced/runtime';
import type { Manifest } from './manifest';

/**
 * The one check of a remote's manifest (read by ./manifest's reader), used by
 * the page before it loads a section and by the control plane's publish
 * checks and `npm run check-remotes` before a deploy: does it expose what the
 * host asks for, and can it run on the page's shared singletons? Pure, and
 * Node-safe. Version ranges are matched by Module Federation's own `satisfy`,
 * the one the page's runtime uses, so a deploy check and the page never
 * disagree on a range.
 */

export interface ManifestExpectations {
  /** The module the host asks for, e.g. `./section`. */
  expose: string;
  /**
   * What the page shares as singletons, name to version. With singletons and
   * `loaded-first` the page's copy is what the remote gets, whatever it asked
   * for; Module Federation only warns, and a remote built for another React
   * then crashes with "Invalid hook call".
   */
  pageShares: Readonly<Record<string, string>>;
  /** Modules the remote must share as singletons, or it would run its own copy beside the page's. */
  singletons?: readonly string[];
}

/** What is wrong with a manifest, part by part; empty when the page may load it. */
export interface ManifestReport {
  exposeProblem?: string;
  sharedProblems: string[];
}

/** Every problem of a manifest, part by part (see ManifestReport). */
export function inspectManifest(manifest: Manifest, { expose, pageShares, singletons = [] }: ManifestExpectations): ManifestReport {
  const report: ManifestReport = { sharedProblems: [] };
  if (!manifest.exposes.includes(expose)) {
    report.exposeProblem = `does not expose ${expose} (it exposes ${manifest.exposes.length > 0 ? manifest.exposes.join(', ') : 'nothing'})`;
  }
  for (const name of singletons) {
    const entry = manifest.shared.find((candidate) => candidate.name === name);
    if (!entry) report.sharedProblems.push(`does not share ${name}: it would run its own copy beside the host's`);
    else if (!entry.singleton) report.sharedProblems.push(`shares ${name} but not as a singleton`);
  }
  for (const { name, requiredVersion } of manifest.shared) {
    const pageVersion = pageShares[name];
    if (requiredVersion !== undefined && pageVersion !== undefined && !satisfy(pageVersion, requiredVersion)) {
      report.sharedProblems.push(`needs ${name} ${requiredVersion} but the page shares ${pageVersion}`);
    }
  }
  return report;
}

/**
 * Why the page must not load the remote this manifest describes, or
 * `undefined` when it may.
 */
export function checkManifest(manifest: Manifest, expectations: ManifestExpectations): string | undefined {
  const { exposeProblem, sharedProblems } = inspectManifest(manifest, expectations);
  if (exposeProblem) return exposeProblem;
  return sharedProblems.length > 0 ? sharedProblems.join('; ') : undefined;
}
