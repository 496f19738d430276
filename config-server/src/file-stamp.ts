import { lstatSync, realpathSync, statSync, watch, type BigIntStats, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { configStamp } from './config-answer';

/**
 * A file's version as one `stat` sees it: its inode (a file renamed over it
 * is another), size and change times to the nanosecond; `missing` when there
 * is none, undefined when it cannot be stat'ed at all.
 */
export function fileStamp(file: string): string | undefined {
  try {
    const stats = statSync(file, { bigint: true, throwIfNoEntry: false });
    return stats ? stampOf(stats) : 'missing';
  } catch {
    return undefined;
  }
}

/**
 * The last stamp made of each file's stats, by their numbers: an unchanged
 * file (every request's case) gets the same string without making it again.
 */
const lastStamps = new LRUCache<string, { stats: BigIntStats; stamp: string }>({ max: 64 });

function stampOf(stats: BigIntStats): string {
  const key = `${stats.dev}:${stats.ino}`;
  const last = lastStamps.get(key);
  if (last && last.stats.size === stats.size && last.stats.mtimeNs === stats.mtimeNs && last.stats.ctimeNs === stats.ctimeNs) return last.stamp;
  const stamp = configStamp(stats);
  lastStamps.set(key, { stats, stamp });
  return stamp;
}

/**
 * How long a watched file's stamp is trusted without a `stat` while the
 * kernel has told of no change in its folder: what an edit takes to show
 * where no change is told at all (a network file system's, edited from
 * another machine).
 */
export const WATCHED_RESTAT_MS = 1000;

/** One watched file: its last stamp, when it was taken, and whether a change has been told since. */
interface Watched {
  stamp: string | undefined;
  statAt: number;
  /** No change told in its folders since the stamp was taken, and the watches are in place. */
  quiet: boolean;
  watchers: FSWatcher[];
}

/** The files watched at once (the operator's config.json, the page template's copies): bounded, each let go closes its watches. */
const watched = new LRUCache<string, Watched>({ max: 32, dispose: (entry) => unwatch(entry) });

function unwatch(entry: Watched): void {
  for (const watcher of entry.watchers) watcher.close();
  entry.watchers = [];
}

/** The folders holding a link on the way to `folder` (a release folder a deploy switches by renaming a link over it). */
function linkParents(folder: string): string[] {
  const found: string[] = [];
  for (let dir = folder; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      if (lstatSync(dir).isSymbolicLink()) found.push(path.dirname(dir));
    } catch {
      // Not there (yet): nothing to follow.
    }
  }
  return found;
}

/**
 * The folders that can change `file`: its own, its real path's when it is a
 * link (a ConfigMap's `..data`), and those holding a link on the way to it
 * (a release folder switched by a rename). Any change
 * there (an edit, a rename over it, a `touch`) is told by inotify; each ends
 * the quiet, so the next call stats again. Watches that cannot be made (no
 * such folder, no inotify left) leave the file stat'ed at every call.
 */
function arm(file: string, entry: Watched): boolean {
  unwatch(entry);
  const folders = new Set([path.dirname(file), ...linkParents(path.dirname(file))]);
  try {
    folders.add(path.dirname(realpathSync(file)));
  } catch {
    // No file yet: its own folder tells when one appears.
  }
  try {
    for (const folder of folders) {
      const watcher = watch(folder, { persistent: false });
      const told = () => {
        entry.quiet = false;
      };
      watcher.on('change', told);
      watcher.on('error', () => {
        told();
        unwatch(entry);
      });
      entry.watchers.push(watcher);
    }
    return true;
  } catch {
    unwatch(entry);
    return false;
  }
}

/**
 * fileStamp without a `stat` while nothing has changed: the file's folders
 * are watched (inotify), and a call made while no change has been told since
 * the last stamp, within WATCHED_RESTAT_MS of it, gets that stamp. Why this
 * still shows an edit on the next request: the kernel queues a change's
 * event when the write is done, before any request sent after it arrives,
 * and the event loop hands out what is ready in the order it became ready,
 * so the event is taken (and the quiet ended) before such a request is read.
 * A call made in the same turn as the write, before the loop has run (a
 * test calling straight after writing), does not see it: callers that need
 * that use fileStamp. After a change is told the folders are watched again,
 * since a link switched may now lead to another folder.
 */
export function watchedStamp(file: string, now = Date.now()): string | undefined {
  const entry = watched.get(file);
  if (entry?.quiet && now - entry.statAt < WATCHED_RESTAT_MS && entry.watchers.length > 0) return entry.stamp;
  const kept = entry ?? { stamp: undefined, statAt: now, quiet: false, watchers: [] };
  if (!entry) watched.set(file, kept);
  // Armed before the stat: a change from here on is told, and one before is in the stat.
  const armed = entry?.quiet === false || kept.watchers.length === 0 ? arm(file, kept) : true;
  kept.quiet = armed;
  kept.stamp = fileStamp(file);
  kept.statAt = now;
  return kept.stamp;
}
