import { createHash } from 'node:crypto';
import { readManifest, type ManifestReading } from '@portico/contract/manifest';
import type { SectionId } from '@portico/contract/sections';

export interface WatchedManifest {
  /** The text as fetched; undefined until fetched, or while the remote answers with an error. */
  text: string | undefined;
  /** SHA-256 of the text, for cache keys. */
  hash: string | undefined;
  /** The manifest read (by the one reader, once per text): its node build, stylesheets and hashes; or why it is no manifest. */
  read: ManifestReading | undefined;
}

export interface ManifestWatcherOptions {
  intervalMs: number;
  /** Each request's time limit. */
  timeoutMs: number;
  /** Larger manifests are not watched (nor inlined in the page, nor their section rendered on the server). */
  maxBytes: number;
  /** A manifest appeared, changed or went away. */
  onChange: () => void;
  log: (line: string) => void;
}

interface Entry extends WatchedManifest {
  etag: string | undefined;
  lastWanted: number;
  /** The sections a config named this URL for. */
  sections: Set<SectionId>;
}

/** A manifest nobody's config names any more is dropped after this long. */
const FORGET_AFTER_MS = 10 * 60_000;

async function readCapped(response: Response, maxBytes: number): Promise<Buffer | undefined> {
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
 * `current(url)` and gets what the last poll saw. A redeploy is seen within
 * one interval.
 */
export class ManifestWatcher {
  private readonly entries = new Map<string, Entry>();
  private readonly timer: NodeJS.Timeout;
  private polling: Promise<void> | undefined;

  constructor(private readonly options: ManifestWatcherOptions) {
    this.timer = setInterval(() => void this.poll(), options.intervalMs);
    this.timer.unref();
  }

  /** What the last poll saw of `url`, `section`'s manifest; a URL not yet watched is watched from now on, and the next poll fetches it. */
  current(url: string, section: SectionId): WatchedManifest {
    let entry = this.entries.get(url);
    if (!entry) {
      entry = { text: undefined, hash: undefined, read: undefined, etag: undefined, lastWanted: 0, sections: new Set() };
      this.entries.set(url, entry);
    }
    if (!entry.sections.has(section)) {
      entry.sections.add(section);
      // A URL a config names for another section too: that section's plan changes now, not at the next poll.
      if (entry.text !== undefined) queueMicrotask(() => this.options.onChange());
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

  /** One round over every watched manifest (one at a time per round; concurrent rounds never overlap). */
  poll(): Promise<void> {
    this.polling ??= this.round().finally(() => {
      this.polling = undefined;
    });
    return this.polling;
  }

  private async round(): Promise<void> {
    const now = Date.now();
    let changed = false;
    await Promise.all(
      [...this.entries].map(async ([url, entry]) => {
        if (now - entry.lastWanted > FORGET_AFTER_MS) {
          this.entries.delete(url);
          changed = true;
          return;
        }
        const before = entry.hash;
        await this.refresh(url, entry);
        if (entry.hash !== before) changed = true;
      }),
    );
    if (changed) this.options.onChange();
  }

  private async refresh(url: string, entry: Entry): Promise<void> {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { Accept: 'application/json', ...(entry.etag && entry.text !== undefined ? { 'If-None-Match': entry.etag } : {}) },
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch {
      // Unreachable: the browser would not get it either; the section is left to it.
      this.forget(entry);
      return;
    }
    if (response.status === 304) return;
    const bytes = response.ok ? await readCapped(response, this.options.maxBytes).catch(() => undefined) : undefined;
    if (!response.ok) await response.body?.cancel().catch(() => undefined);
    // Only text that is UTF-8 as it stands is inlined: the page re-encodes it, and the pin must hold on the same bytes.
    const text = bytes?.toString('utf8');
    if (bytes === undefined || text === undefined || !Buffer.from(text, 'utf8').equals(bytes)) {
      this.forget(entry);
      return;
    }
    const hash = createHash('sha256').update(bytes).digest('base64');
    if (hash !== entry.hash) {
      entry.text = text;
      entry.hash = hash;
      entry.read = readManifest(text, url);
    }
    entry.etag = response.headers.get('etag') ?? undefined;
  }

  private forget(entry: Entry): void {
    entry.text = undefined;
    entry.hash = undefined;
    entry.read = undefined;
    entry.etag = undefined;
  }

  close(): void {
    clearInterval(this.timer);
  }
}
