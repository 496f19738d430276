import { MANIFEST_MAX_BYTES } from '@portico/contract/manifest';
import { overrideRefusal } from '@portico/contract/override';
import type { SectionId } from '@portico/contract/sections';
import { REMOTE_LOADING_BOUNDS, sectionGrant, type SiteConfig } from '@portico/shared-config/config';
import { LRUCache } from 'lru-cache';

/**
 * A manifest as its origin answered it, or why it could not be had: the
 * origin's own error status passed on (the page's loader tells a transient
 * one from the rest as it did when it fetched the manifest itself), 502 when
 * it could not be fetched or read, 404 when the page may not load it.
 */
export type RelayedManifest = { bytes: Buffer } | { status: number; problem: string };

/** Why the page may not load `section` from `url`: a section granted no script loads nothing; else its configured URL, or an override the rule allows. */
export function relayProblem(config: SiteConfig, section: SectionId, url: string): string | undefined {
  if (!sectionGrant(config, section).interactive) return `not relayed: the integrator grants the ${section} section no script in the browser`;
  if (url === config.remotes[section]) return undefined;
  const refused = overrideRefusal(url, config.allowedRemoteOrigins);
  return refused === undefined ? undefined : `not the ${section} section's configured manifest, nor an allowed override: ${refused}`;
}

async function fetchManifest(url: string, timeoutMs: number): Promise<RelayedManifest> {
  try {
    // No redirect: a manifest must be at the URL config.json or an allowed origin names, as the publish checks hold it.
    const response = await fetch(url, { headers: { Accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return { status: response.status >= 400 ? response.status : 502, problem: `answered HTTP ${response.status}` };
    }
    if (Number(response.headers.get('content-length')) > MANIFEST_MAX_BYTES) {
      await response.body?.cancel().catch(() => undefined);
      return { status: 502, problem: `is over ${MANIFEST_MAX_BYTES} bytes` };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body ?? []) {
      size += (chunk as Uint8Array).byteLength;
      if (size > MANIFEST_MAX_BYTES) return { status: 502, problem: `is over ${MANIFEST_MAX_BYTES} bytes` };
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
    return { bytes: Buffer.concat(chunks) };
  } catch (error) {
    return { status: 502, problem: `could not be fetched (${(error as Error).message})` };
  }
}

/**
 * The sections' manifests, fetched by the server for the page on its own
 * origin (`/section-manifest/<section>?url=…`), so the page's CSP lets it
 * connect to that origin alone: a section's script, where one is granted,
 * can send nothing to its own server or anyone else's. Only a URL the page
 * may load the section from is fetched (relayProblem); one fetch per URL at
 * a time, its answer kept a short while, so a page's burst of loads, or
 * many visitors at once, make one request to the section's origin.
 */
export class ManifestRelay {
  private readonly cache: LRUCache<string, RelayedManifest>;

  constructor(options: { keepMs?: number; timeoutMs?: number; max?: number } = {}) {
    // No shorter than the page's own deadline for a section (10 s at most): the page's, not ours, ends a hanging load.
    const timeoutMs = options.timeoutMs ?? REMOTE_LOADING_BOUNDS.deadlineMs.max;
    this.cache = new LRUCache<string, RelayedManifest>({
      max: options.max ?? 64,
      ttl: options.keepMs ?? 2000,
      fetchMethod: (url) => fetchManifest(url, timeoutMs),
    });
  }

  /** The manifest at `url` for `section` on a page served `config`. */
  async get(config: SiteConfig, section: SectionId, url: string): Promise<RelayedManifest> {
    const problem = relayProblem(config, section, url);
    if (problem) return { status: 404, problem };
    const answer = (await this.cache.fetch(url)) ?? { status: 502, problem: 'could not be fetched' };
    // Only a manifest is kept: the page's retry of a failure asks the origin again, as it did itself.
    if (!('bytes' in answer)) this.cache.delete(url);
    return answer;
  }
}
