import type { Manifest } from '@portico/contract/manifest';
import { assertSri, DEFAULT_FETCH_LIMITS, NodeSectionError } from '@portico/node-sections';
import { fetchChecked, type FetchRules } from './fetch-checked';

/** A section's node build, fetched and matching the hash its manifest gives. */
export interface NodeBuild {
  url: string;
  integrity: string;
  /** The build's source, as a render worker evaluates it. */
  code: string;
}

/**
 * The section's node build, as a server would load it to render the section:
 * named in the manifest with its hash, on the manifest's origin (the
 * manifest reader refuses any other), reachable under `rules`, within the
 * server loader's size limit, matching the hash (the loader's own
 * `assertSri`). Or the problem in words.
 */
export async function fetchNodeBuild(manifest: Manifest, rules: FetchRules): Promise<{ nodeBuild: NodeBuild } | { problem: string }> {
  const entry = manifest.nodeEntry;
  if ('problem' in entry) return { problem: entry.problem };
  // The server's own request, not the page's: no Origin, no CORS asked of it.
  const fetched = await fetchChecked(entry.url, DEFAULT_FETCH_LIMITS.maxBytes, { ...rules, pageOrigin: undefined });
  if ('problem' in fetched) return fetched;
  try {
    assertSri(fetched.bytes, entry.integrity, 'integrity', entry.url);
  } catch (error) {
    if (error instanceof NodeSectionError) return { problem: error.message };
    throw error;
  }
  return { nodeBuild: { url: entry.url, integrity: entry.integrity, code: fetched.bytes.toString('utf8') } };
}
