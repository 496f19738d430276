import { watch, type FSWatcher } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { LRUCache } from 'lru-cache';
import type { Answer } from '@portico/platform/http';

/** A hashed file larger than this is streamed from disk at every request, never kept. */
const IMMUTABLE_KEPT_FILE_BYTES = 1024 * 1024;
/** What one folder's handler keeps of its hashed files in all (the host's first-visit chunks are about 400 KB with their copies). */
const IMMUTABLE_KEPT_BYTES = 32 * 1024 * 1024;

/** Request headers that make an answer other than the plain 200 (a 304, a 206, a 412): those go to disk as before. */
const CONDITIONAL = ['range', 'if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range'] as const;

/** Whether `headers` ask for the whole file, unconditionally: the one answer kept. */
export function asksWholeFile(method: string | undefined, headers: IncomingHttpHeaders): boolean {
  if (method !== 'GET') return false;
  for (const name of CONDITIONAL) if (headers[name] !== undefined) return false;
  return true;
}

/** One hashed file's answers, per encoding sent (`identity` for the plain file), and the copies its folder has. */
interface Kept {
  /** The precompressed copies found beside it when it was first served, best first. */
  encodings: readonly string[];
  answers: Map<string, { status: number; headers: Record<string, string>; body: Buffer }>;
}

/**
 * A folder's hashed files (`main.0123456789.js`), kept in memory once
 * served: a hashed name is its content's, so the bytes under it never
 * change, and a request for one costs a lookup instead of two `realpath`s,
 * three `stat`s, an open and a read (the stream `@fastify/send` hands back).
 * Only the plain 200 of a GET is kept (a 304, a range, a HEAD go to disk as
 * before, with the very ETag the kept answer carries), files of at most
 * IMMUTABLE_KEPT_FILE_BYTES, IMMUTABLE_KEPT_BYTES in all, the least recently
 * used let go. A name is only as good as the build that wrote it: a file
 * changed in place (a tampered or corrupt copy, then a redeploy that puts
 * the right bytes back under the same name) must not be answered from
 * memory after the change, so everything kept is let go whenever the folder
 * (and its parent, for a switched link) tells of any change, as
 * watchedStamp's folders do (config-server's file-stamp.ts: the event is
 * taken before a request sent after the write). Only the folder's own files
 * are kept (the built chunks; not `assets/`, which its watch does not see),
 * and a folder that cannot be watched keeps nothing.
 */
export class ImmutableFiles {
  private readonly kept = new LRUCache<string, Kept>({
    maxSize: IMMUTABLE_KEPT_BYTES,
    sizeCalculation: (kept) =>
      Math.max(
        1,
        [...kept.answers.values()].reduce((sum, answer) => sum + answer.body.length, 0),
      ),
  });
  /** The folder's watches; none until the first file is kept, none again after one failed (then the next keep tries again). */
  private watchers: FSWatcher[] = [];
  /** Counts the changes told: a reading begun before one is not kept. */
  private generation = 0;

  constructor(private readonly dir: string) {}

  /** The kept answer to `file` in the encoding `choose` picks among its copies, or undefined (not kept yet, or not in that encoding). */
  answer(file: string, choose: (available: readonly string[]) => string): Answer | undefined {
    const kept = this.kept.get(file);
    return kept?.answers.get(choose(kept.encodings));
  }

  /** What a keep of `file` must see unchanged at its end: the generation at its start, once the folder is watched (undefined: not kept). */
  begin(file: string): number | undefined {
    // `/main.0123456789.js`: one segment, in the watched folder itself.
    if (file.lastIndexOf('/') !== 0) return undefined;
    if (this.watchers.length === 0 && !this.watch()) return undefined;
    return this.generation;
  }

  private watch(): boolean {
    const told = () => {
      this.generation += 1;
      this.kept.clear();
      // Watched afresh at the next keep: a folder that is a link may lead elsewhere now.
      this.unwatch();
    };
    try {
      const name = path.basename(this.dir);
      for (const folder of [this.dir, path.dirname(this.dir)]) {
        const watcher = watch(folder, { persistent: false });
        // In the parent, only the folder itself (a link switched, the folder replaced): its siblings' changes are not its.
        watcher.on('change', (_event, changed) => (folder === this.dir || changed === null || String(changed) === name ? told() : undefined));
        watcher.on('error', told);
        this.watchers.push(watcher);
      }
      return true;
    } catch {
      this.unwatch();
      return false;
    }
  }

  private unwatch(): void {
    for (const watcher of this.watchers) watcher.close();
    this.watchers = [];
  }

  /**
   * `answer` (a 200 whose body is the file's stream) read whole and kept
   * under `file` and `encoding`; the answer to send, now with a Buffer. A
   * file over the bound is answered as it came, its stream untouched.
   */
  async keep(
    file: string,
    encodings: readonly string[],
    encoding: string,
    answer: Answer & { body: Readable },
    generation: number | undefined,
  ): Promise<Answer> {
    const length = Number(answer.headers['Content-Length'] ?? Number.NaN);
    if (generation === undefined || answer.status !== 200 || !(length <= IMMUTABLE_KEPT_FILE_BYTES)) return answer;
    const chunks: Buffer[] = [];
    for await (const chunk of answer.body) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const whole = { status: 200, headers: answer.headers, body };
    // A file cut short under us (replaced mid-read), or a folder changed since the reading began, is sent as read, not kept.
    if (body.length !== length || generation !== this.generation) return whole;
    const kept = this.kept.get(file) ?? { encodings, answers: new Map() };
    kept.answers.set(encoding, whole);
    this.kept.set(file, kept);
    return whole;
  }
}
