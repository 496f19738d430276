import { readManifest } from '@portico/contract/manifest';
import type { SectionModule } from '@portico/shared-config/contract';
import { NodeSectionError } from './node-section-error';
import { evaluateSection, type SharedModules } from './evaluate-container';
import { DEFAULT_FETCH_LIMITS, fetchVerified, type FetchLimits } from './fetch-verified';
import { assertSri } from './sri';

export interface LoadNodeSectionOptions extends Partial<FetchLimits> {
  /** The configured URL of the section's `mf-manifest.json`. */
  manifestUrl: string;
  /** The manifest as fetched: the bytes, or their text as UTF-8. The pin is checked on these, and they are what is parsed. */
  manifest: string | Uint8Array;
  /** config.json's `remoteIntegrity` for this section, if any. */
  remoteIntegrity?: string;
  /** The caller's React, react-dom and shared-config: the one instance the section renders with. */
  shared: SharedModules;
}

/**
 * Loads a section's node build for server rendering, checked before it runs:
 * the manifest against its pin, the node build (fetched here, from the
 * manifest's origin only) against the SHA-384 the manifest gives. Nothing
 * is read from the local disk. Resolves to the exposed `{ Section }`;
 * rejects with a NodeSectionError saying why otherwise.
 */
export async function loadNodeSection(options: LoadNodeSectionOptions): Promise<SectionModule> {
  const bytes = typeof options.manifest === 'string' ? Buffer.from(options.manifest, 'utf8') : options.manifest;
  if (options.remoteIntegrity !== undefined) assertSri(bytes, options.remoteIntegrity, 'pin', `${options.manifestUrl} (remoteIntegrity)`);
  const read = readManifest(bytes, options.manifestUrl);
  if ('problem' in read) throw new NodeSectionError('manifest', `${options.manifestUrl} ${read.problem}`);
  const entry = read.manifest.nodeEntry;
  if ('problem' in entry) throw new NodeSectionError(entry.refusal, entry.problem);
  const code = await fetchVerified(entry.url, entry.integrity, {
    maxBytes: options.maxBytes ?? DEFAULT_FETCH_LIMITS.maxBytes,
    timeoutMs: options.timeoutMs ?? DEFAULT_FETCH_LIMITS.timeoutMs,
  });
  return evaluateSection(code.toString('utf8'), entry.url, options.shared);
}
