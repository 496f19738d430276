import { createHash } from 'node:crypto';
import type { Logger } from '@portico/platform/logging';
import { readManifest, type ManifestReading } from '@portico/contract/manifest';
import type { SectionId } from '@portico/contract/sections';
import { ChurnGate, type ChurnBound, type HeldState } from './manifest-churn';

export interface WatchedManifest {
  /** The text as fetched; undefined until fetched, or while the remote answers with an error. */
  text: string | undefined;
  /** SHA-256 of the text, for cache keys. */
  hash: string | undefined;
  /** The manifest read (by the one reader, once per text): its node build, stylesheets and hashes; or why it is no manifest. */
  read: ManifestReading | undefined;
}

/** A manifest's served version changed (appeared, changed, went away, or is no longer watched): what was made from `before` at `url` is not served again. */
export interface ManifestChange {
  url: string;
  /** The sections a config names it for. */
  sections: ReadonlySet<SectionId>;
  /** The hash served before (undefined: none). */
  before: string | undefined;
}

/** A manifest held at its last version because it changes too fast (manifest-churn.ts). */
export interface HeldManifest extends HeldState {
  url: string;
  sections: SectionId[];
}

export interface ManifestWatcherOptions {
  intervalMs: number;
  /** Each request's time limit. */
  timeoutMs: number;
  /** Larger manifests are not watched (nor inlined in the page, nor their section rendered on the server). */
  maxBytes: number;
  /** How fast a manifest may change before it is held (MANIFEST_CHURN). */
  churn: ChurnBound;
  /** A manifest's served version changed, or a section was named for it. */
  onChange: (change: ManifestChange) => void;
  log: Logger;
}

/** A version a poll fetched: served, or held back while its manifest churns. */
interface Fetched {
  text: string;
  hash: string;
}

interface Entry extends WatchedManifest {
  /** The last version a poll saw (undefined: gone), and its ETag: a 304 means it is still that one. */
  latest: Fetched | undefined;
  etag: string | undefined;
  /** Some version was served once: from then on each change counts against the churn bound. */
  known: boolean;
  gate: ChurnGate;
  /** Its refresh under way: a slow manifest is not asked again meanwhile, and delays no other's. */
  refreshing: Promise<void> | undefined;
  lastWanted: number;
  /** The sections a config named this URL for. */
  sections: Set<SectionId>;
}

/** A manifest nobody's config names any more is dropped after this long. */
const FORGET_AFTER_MS = 10 * 60_000;

/** A span as the log says it: `10 min`, `4 s`. */
const span = (ms: number) => (ms >= 60_000 ? `${Math.round(ms / 6000) / 10} min` : `${Math.round(ms / 100) / 10} s`);

/** A response's body, or undefined when it is over `maxBytes` (declared or counted); also the manifest relay's. */
export async function readCapped(response: Response, maxBytes: number): Promise<Buffer | undefined> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += (chunk as Uint8Array).byteLength;
    if (size > maxBytes) return undefined;
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

/**
 * The configured sections' manifests, polled in the background with
 * conditional requests (ETag), never on a visitor's request path: a page asks
 * `current(url)` and gets the version served. A redeploy is seen within one
 * interval; each manifest is polled on its own, so a slow one delays no
 * other's. A manifest that changes faster than the churn bound is held at
 * its last version (the log says so, and `held()`) until it calms down.
 */
export class ManifestWatcher {
  private readonly entries = new Map<string, Entry>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: ManifestWatcherOptions) {
    this.timer = setInterval(() => void this.poll(), options.intervalMs);
    this.timer.unref();
  }

  /** The version served of `url`, `section`'s manifest; a URL not yet watched is watched from now on, and the next poll fetches it. */
  current(url: string, section: SectionId): WatchedManifest {
    let entry = this.entries.get(url);
    if (!entry) {
      entry = {
        text: undefined,
        hash: undefined,
        read: undefined,
        latest: undefined,
        etag: undefined,
        known: false,
        gate: new ChurnGate(this.options.churn),
        refreshing: undefined,
        lastWanted: 0,
        sections: new Set(),
      };
      this.entries.set(url, entry);
    }
    if (!entry.sections.has(section)) {
      entry.sections.add(section);
      // A URL a config names for another section too: that section's plan changes now, not at the next poll.
      const before = entry.hash;
      if (entry.text !== undefined) queueMicrotask(() => this.options.onChange({ url, sections: new Set([section]), before }));
    }
    entry.lastWanted = Date.now();
    return { text: entry.text, hash: entry.hash, read: entry.read };
  }

  /** The manifests watched for `section` (fetched or not), each with its URL. */
  watched(section: SectionId): { url: string; manifest: WatchedManifest }[] {
    return [...this.entries]
      .filter(([, entry]) => entry.sections.has(section))
      .map(([url, entry]) => ({ url, manifest: { text: entry.text, hash: entry.hash, read: entry.read } }));
  }

  /** The manifests held now. */
  held(): HeldManifest[] {
    return [...this.entries].flatMap(([url, entry]) => {
      const { state } = entry.gate;
      return state ? [{ url, sections: [...entry.sections], ...state }] : [];
    });
  }

  /** One round over every watched manifest: each one not being fetched already is fetched now; resolves once each has answered. */
  poll(): Promise<void> {
    const now = Date.now();
    const refreshes = [...this.entries].map(([url, entry]) => {
      if (now - entry.lastWanted > FORGET_AFTER_MS) {
        this.entries.delete(url);
        this.options.onChange({ url, sections: entry.sections, before: entry.hash });
        return undefined;
      }
      entry.refreshing ??= this.refresh(url, entry).finally(() => (entry.refreshing = undefined));
      return entry.refreshing;
    });
    return Promise.all(refreshes).then(() => undefined);
  }

  private async refresh(url: string, entry: Entry): Promise<void> {
    const seen = await this.fetchVersion(url, entry);
    if (seen !== 'unchanged') entry.latest = seen;
    if (!entry.known) {
      if (entry.latest) this.serve(url, entry);
      return;
    }
    const step = entry.gate.see(entry.latest?.hash, entry.hash, Date.now());
    const named = `the ${[...entry.sections].join(' and ')} section's manifest ${url}`;
    const { versions, withinMs, calmMs } = this.options.churn;
    if (step.began)
      this.options.log.warn(
        `${named} changed more than ${versions} times within ${span(withinMs)}: it is held at the version served (${entry.hash?.slice(0, 12) ?? 'none'}…) until it stays unchanged for ${span(calmMs)}; the versions seen meanwhile are not read, run or served, nor is anything they name fetched`,
      );
    if (step.released)
      this.options.log.info(
        `${named} stayed unchanged for ${span(calmMs)}: no longer held, ${step.step === 'adopt' ? 'its latest version is served' : 'the version served is its latest'}`,
      );
    if (step.step === 'adopt') this.serve(url, entry);
  }

  /** The latest version seen becomes the one served. */
  private serve(url: string, entry: Entry): void {
    const before = entry.hash;
    const { latest } = entry;
    entry.known ||= latest !== undefined;
    if (latest?.hash === before) return;
    entry.text = latest?.text;
    entry.hash = latest?.hash;
    entry.read = latest ? readManifest(latest.text, url) : undefined;
    this.options.onChange({ url, sections: new Set(entry.sections), before });
  }

  /** What the manifest is now: a version, gone (undefined), or the same as the last poll saw (a 304). */
  private async fetchVersion(url: string, entry: Entry): Promise<Fetched | undefined | 'unchanged'> {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { Accept: 'application/json', ...(entry.etag && entry.latest !== undefined ? { 'If-None-Match': entry.etag } : {}) },
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch {
      // Unreachable: the browser would not get it either; the section is left to it.
      entry.etag = undefined;
      return undefined;
    }
    if (response.status === 304) return 'unchanged';
    const bytes = response.ok ? await readCapped(response, this.options.maxBytes).catch(() => undefined) : undefined;
    if (!response.ok) await response.body?.cancel().catch(() => undefined);
    // Only text that is UTF-8 as it stands is inlined: the page re-encodes it, and the pin must hold on the same bytes.
    const text = bytes?.toString('utf8');
    entry.etag = undefined;
    if (bytes === undefined || text === undefined || !Buffer.from(text, 'utf8').equals(bytes)) return undefined;
    entry.etag = response.headers.get('etag') ?? undefined;
    return { text, hash: createHash('sha256').update(bytes).digest('base64') };
  }

  close(): void {
    clearInterval(this.timer);
  }
}
