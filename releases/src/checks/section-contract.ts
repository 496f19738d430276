import type { Manifest } from '@portico/contract/manifest';
import { EXPOSED_SECTION, remoteNameOf, type SectionId } from '@portico/contract/sections';
import { inspectManifest } from '@portico/contract/manifest-check';

/**
 * Shared modules a section must take from the host, or it would run a
 * second copy: every section renders with React and reads the page's
 * texts and config through shared-config.
 */
const ALWAYS_SHARED = ['react', '@portico/shared-config'];

/**
 * Shared modules a section must share as singletons when it uses them.
 * Sections leave mounting to the host and import no react-dom, and Module
 * Federation lists in a manifest only the shared modules the build uses, so
 * our own builds name no react-dom: requiring it refused every real build.
 */
const SINGLETON_WHEN_USED = ['react-dom'];

/** The shared modules whose ranges a publish reports against the host's versions. */
export const CHECKED_SHARES = ['react', 'react-dom', '@portico/shared-config'] as const;

/** What is wrong with a manifest as `section`'s, part by part; empty when the host may load it in that place. */
export interface SectionReport {
  /** Set when it is the manifest of another remote. */
  nameProblem?: string;
  exposeProblem?: string;
  sharedProblems: string[];
}

/**
 * The page's own check (`@portico/contract/manifest-check`, with the host's
 * installed versions as what the page shares), plus what a deploy adds:
 * the remote's name, and the singletons.
 */
export function inspectSection(manifest: Manifest, section: SectionId, hostShared: Readonly<Record<string, string>>): SectionReport {
  const listed = new Set(manifest.shared.map(({ name }) => name));
  const report = inspectManifest(manifest, {
    expose: EXPOSED_SECTION,
    pageShares: hostShared,
    singletons: [...ALWAYS_SHARED, ...SINGLETON_WHEN_USED.filter((name) => listed.has(name))],
  });
  return {
    ...(manifest.name === remoteNameOf(section) ? {} : { nameProblem: `is the manifest of "${String(manifest.name)}", not of ${remoteNameOf(section)}` }),
    ...report,
  };
}
