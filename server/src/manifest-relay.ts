import { MANIFEST_MAX_BYTES, readManifest } from '@portico/contract/manifest';
import type { RelayFault } from '@portico/contract/manifest-relay';
import { overrideRefusal } from '@portico/contract/override';
import { sectionIdProblem } from '@portico/contract/section-entries';
import type { SectionId } from '@portico/contract/sections';
import { REMOTE_LOADING_BOUNDS, sectionGrant, sectionsFromConfig, type SiteConfig } from '@portico/shared-config/config';
import { readCapped } from './ssr/manifest-watcher';

/**
 * What the relay answers: the origin's status and bytes as they came when
 * they read as a manifest; an error status without its body (the page's
 * loader tells a transient one from the rest as it did when it fetched the
 * manifest itself, and needs no more); or an answer of its own with the
 * fault that made it (RELAY_FAULT_HEADER) and the reason in words.
 */
export type RelayedManifest = { status: number; bytes: Buffer } | { status: number; fault: RelayFault; problem: string };

/**
 * The relay waits for the origin longer than the page waits for a section
 * (REMOTE_LOADING_BOUNDS' longest deadline), so an origin that never answers
 * holds the page's fetch until the page's own deadline ends it, as it did
 * when the page fetched the manifest itself. The page's going away (its
 * deadline, a Try again) ends the relay's fetch at once.
 */
const RELAY_TIMEOUT_MS = REMOTE_LOADING_BOUNDS.deadlineMs.max + 5000;

/** Relayed at once by one server; beyond, `busy` (503, which the page retries). Only a page the server did not render, a Try again or an override asks. */
const RELAY_MAX_IN_FLIGHT = 64;

/**
 * Why the page may not load `section`'s manifest from `url`, or undefined
 * when it may: the section must be one the page shows (a built-in one, or
 * an added one with a manifest URL; not hidden), granted script by the
 * integrator, and `url` its configured manifest or an override the rule
 * allows. Anything else is no business of the page's, and is not fetched:
 * the relay is no proxy to anywhere a visitor names.
 */
function relayProblem(config: SiteConfig, section: SectionId, url: string): string | undefined {
  const idProblem = sectionIdProblem(section);
  if (idProblem !== undefined) return `it is not a section id (${idProblem})`;
  const shown = sectionsFromConfig(config).some(({ id, hidden, builtIn }) => id === section && !hidden && (builtIn || config.remotes[id] !== undefined));
  if (!shown) return `this page shows no section "${section}"`;
  if (!sectionGrant(config, section).interactive) return `the integrator grants the ${section} section no script in the browser`;
  const configured = config.remotes[section];
  if (configured !== undefined && URL.canParse(url) && URL.canParse(configured) && new URL(url).href === new URL(configured).href) return undefined;
  const refused = overrideRefusal(url, config.allowedRemoteOrigins);
  return refused === undefined ? undefined : `it is not the ${section} section's configured manifest, nor an allowed override: ${refused}`;
}

const fault = (status: number, kind: RelayFault, problem: string): RelayedManifest => ({ status, fault: kind, problem });

async function fetchManifest(url: string, timeoutMs: number, gone: AbortSignal): Promise<RelayedManifest> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    // No redirect: a manifest must be at the URL config.json or an allowed origin names, as the publish checks and the manifest watcher hold it.
    const response = await fetch(url, { headers: { Accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.any([timeout, gone]) });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      return fault(502, 'redirected', `answered a redirect (HTTP ${response.status}), which is not followed`);
    }
    // What the server can reach on an allowed origin and a browser could not
    // read there (CORS) is passed back only if it is what the page asked
    // for: a manifest. An error's body is never passed back.
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return { status: response.status, bytes: Buffer.alloc(0) };
    }
    const bytes = await readCapped(response, MANIFEST_MAX_BYTES);
    if (bytes === undefined) return fault(502, 'too-large', `is over ${MANIFEST_MAX_BYTES} bytes`);
    const read = readManifest(bytes, url);
    if ('problem' in read) return fault(502, 'not-a-manifest', read.problem);
    return { status: response.status, bytes };
  } catch (error) {
    if (timeout.aborted) return fault(504, 'unreachable', `did not answer within ${timeoutMs} ms`);
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    return fault(502, 'unreachable', `could not be fetched (${cause})`);
  }
}

/**
 * The sections' manifests, fetched by the server for the page on its own
 * origin (`/section-manifest/<section>?url=…`), so the page's CSP lets it
 * connect to that origin alone: a section's script, where one is granted,
 * can send nothing to its own server or anyone else's by fetch. Only a URL
 * the page may load the section from is fetched (relayProblem), with no
 * redirect followed, no more than MANIFEST_MAX_BYTES and RELAY_TIMEOUT_MS.
 *
 * A faithful pass-through, nothing kept: each request of the page is one
 * request to the origin, with the origin's status and bytes, so a retry or
 * a Try again asks the origin again, and a pin holds on the bytes the
 * origin sent (the relay changes none). A server-rendered page carries its
 * manifests inlined, so only a page the server did not render, a stale
 * inlined manifest, a Try again or an override comes here.
 */
export class ManifestRelay {
  private inFlight = 0;

  constructor(private readonly options: { timeoutMs?: number; maxInFlight?: number } = {}) {}

  /** The manifest at `url` for `section` on a page served `config`; `gone` aborts when the page no longer waits. */
  async get(config: SiteConfig, section: SectionId, url: string, gone: AbortSignal = new AbortController().signal): Promise<RelayedManifest> {
    const problem = relayProblem(config, section, url);
    if (problem) return fault(403, 'refused', problem);
    if (this.inFlight >= (this.options.maxInFlight ?? RELAY_MAX_IN_FLIGHT)) return fault(503, 'busy', 'the server is relaying as many manifests as it will');
    this.inFlight += 1;
    try {
      return await fetchManifest(url, this.options.timeoutMs ?? RELAY_TIMEOUT_MS, gone);
    } finally {
      this.inFlight -= 1;
    }
  }
}
