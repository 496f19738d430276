import type { SectionId } from '@portico/contract/sections';
import type { Database, Listening } from '@portico/platform/database';
import { isSection } from '../scopes';
import { RELEASES_CHANNEL } from './section-lock';

/** How often `watch` looks at the database besides listening: the bound on a lost notification. */
export const WATCH_POLL_MS = 5000;

/** How often `watch` tries to listen again once its connection is lost (a database restart): well within a second of the database answering. */
const RELISTEN_MS = 300;

export interface WatchOptions {
  /** How often the generations are read besides listening (WATCH_POLL_MS; tests ask for less). */
  pollMs?: number;
  /**
   * Told after each read of the generations whether the database answered
   * (undefined) or not (why): the watcher's one poll is the server's only
   * look at the store between changes, so an outage is seen there.
   */
  onRead?: (problem: Error | undefined) => void;
}

/** A watch under way; closed, it calls nothing more. */
export interface ReleaseWatch {
  close(): Promise<void>;
}

/**
 * Calls `onChange(section)` after each activation or rollback on any
 * server: at once through LISTEN, and from a poll every `pollMs` that
 * catches what a lost notification missed. A listening connection that is
 * lost (the database restarted) is listened again every RELISTEN_MS until
 * the database answers, then the generations are read at once: the
 * changes made meanwhile are reported within a second of the database
 * answering, not at the next poll. A change may be reported more than
 * once; the caller reads `Releases.served()`. This is the one catch-up
 * poll of a server: what it serves is read again only when this reports a
 * change (ServedReleases) or the database answering again (`onRead`).
 */
export async function watchReleases(db: Database, onChange: (section: SectionId) => void, options: WatchOptions = {}): Promise<ReleaseWatch> {
  const generations = async () =>
    new Map(
      (await db.query<{ section: SectionId; generation: string }>('SELECT section, generation::text AS generation FROM release_sections')).map((row) => [
        row.section,
        row.generation,
      ]),
    );
  // With the database away at first, every section counts as changed at the first read that reaches it.
  let known = await generations().catch(() => new Map<SectionId, string>());
  let listening: Listening | undefined;
  let closed = false;

  // One read of the generations at a time; one asked for meanwhile runs after it, on fresh data.
  let reading: Promise<void> | undefined;
  let readAgain = false;
  const catchUp = (): Promise<void> => {
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = (async () => {
      try {
        const now = await generations();
        for (const [section, generation] of now) if (known.get(section) !== generation && isSection(section)) onChange(section);
        known = now;
        if (!closed) options.onRead?.(undefined);
      } catch (error) {
        // The database is away: what was last known stays served; the next read tries again.
        if (!closed) options.onRead?.(error as Error);
      }
    })().finally(() => {
      reading = undefined;
      if (readAgain && !closed) {
        readAgain = false;
        void catchUp();
      }
    });
    return reading;
  };

  // One attempt to listen at a time; a lost connection is tried again every RELISTEN_MS.
  let listenAttempt: Promise<boolean> | undefined;
  let retry: NodeJS.Timeout | undefined;
  const listen = (): Promise<boolean> =>
    (listenAttempt ??= (async () => {
      if (closed) return false;
      if (listening?.alive) return true;
      await listening?.close().catch(() => undefined);
      try {
        listening = await db.listen(
          RELEASES_CHANNEL,
          (payload) => {
            if (isSection(payload)) onChange(payload);
          },
          relistenSoon,
        );
        return true;
      } catch {
        listening = undefined;
        return false;
      }
    })().finally(() => (listenAttempt = undefined)));
  function relistenSoon(): void {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void listen().then((listens) => {
        // Listening again: what changed while nobody listened is read now.
        if (listens) void catchUp();
        else relistenSoon();
      });
    }, RELISTEN_MS);
    retry.unref();
  }

  if (!(await listen())) relistenSoon();
  const poll = async () => {
    if (closed) return;
    if (!(await listen())) relistenSoon();
    await catchUp();
  };
  const timer = setInterval(() => void poll(), options.pollMs ?? WATCH_POLL_MS);
  timer.unref();
  return {
    async close() {
      closed = true;
      clearInterval(timer);
      clearTimeout(retry);
      await listenAttempt?.catch(() => undefined);
      await listening?.close().catch(() => undefined);
    },
  };
}
