import { DEFAULT_CONFIG_PATH, readConfigFile, servedConfig, type ConfigAnswer, type ConfigRead } from './config-answer';
import { LRUCache } from 'lru-cache';
import { fileStamp, watchedStamp } from './file-stamp';

/**
 * How long after its last modification a file's stamp is not trusted alone.
 * File systems keep times at the kernel's clock tick (a few milliseconds on
 * Linux), some at a second or two (FAT, some network shares): two writes of
 * the same size within one tick carry the same stamp. A file modified this
 * recently is read again, and compared, at every request.
 */
export const RACY_STAMP_MS = 2500;

/** What was read of the file, for one stamp. */
interface Held {
  stamp: string | undefined;
  read: ConfigRead;
  /** The file's text as read (undefined for a fault), to tell a racy stamp's new content from the old. */
  text: string | undefined;
  /** The file's modification time (ms) and when it was read: within RACY_STAMP_MS of each other, the stamp alone proves nothing. */
  mtimeMs: number | undefined;
  readAt: number;
  /** `/config.json`'s answer per host name (the default config names the visitor's host), made once each. */
  answers: LRUCache<string, ConfigAnswer>;
}

/** Host names kept per version of the default config: visitors choose the Host header, so this is bounded. */
const HOSTS_KEPT = 64;

/**
 * The operator's config.json (or the default one), read once per change of
 * the file instead of once per request: each request costs one `stat` (no
 * read; with `watched`, none while its folder's watch has told of no change:
 * watchedStamp) while the file is unchanged, and gets the very same answer object,
 * so what is made from it can be kept by identity. An edit is seen on the
 * next request: a new stamp (inode, size, times to the nanosecond) reads the
 * file again, and while the file was modified within RACY_STAMP_MS of its
 * last read it is read again at every request (an edit of the same size
 * within one clock tick has the same stamp). A file changing while it is
 * read is read again (its stamp before and after differ), so an answer is
 * always one version of the file: a file being written (truncated, then
 * completed) answers the error until it is whole again, never a mix.
 */
export class ConfigFile {
  private held: Held | undefined;
  /** The readings started, and the one `held` came from: a slower, older reading never replaces a newer one. */
  private started = 0;
  private heldFrom = 0;

  constructor(
    private readonly options: {
      configPath?: string;
      basePort: number;
      /** The port each app listens on (answerConfig's `ports`), read at each new answer. */
      ports?: () => readonly number[] | undefined;
      /** Each request's version from watchedStamp (a server's requests) rather than a stat at every call (fileStamp). */
      watched?: boolean;
    },
  ) {}

  private get file(): string {
    return this.options.configPath ?? DEFAULT_CONFIG_PATH;
  }

  /** `/config.json`'s answer to a visitor who named `hostHeader`: answerConfig's, made once per version of the file. */
  async answer(hostHeader: string | undefined): Promise<ConfigAnswer> {
    const held = await this.current();
    const ports = this.options.ports?.();
    const key = this.options.configPath ? '' : `${hostHeader ?? ''} ${ports?.join(',') ?? ''}`;
    let answer = held.answers.get(key);
    if (!answer) {
      answer = servedConfig(held.read, { configPath: this.options.configPath, hostHeader, basePort: this.options.basePort, ports });
      held.answers.set(key, answer);
    }
    return answer;
  }

  private async current(): Promise<Held> {
    const held = this.held;
    const stamp = this.options.watched ? watchedStamp(this.file) : fileStamp(this.file);
    if (held && held.stamp !== undefined && !this.racy(held) && stamp === held.stamp) return held;
    // Each request reads for itself: one that joined a reading started before a write completed could get the file before it.
    return this.readAgain();
  }

  private racy(held: Held): boolean {
    return held.mtimeMs === undefined || held.readAt - held.mtimeMs < RACY_STAMP_MS;
  }

  private async readAgain(): Promise<Held> {
    const order = ++this.started;
    const readAt = Date.now();
    const { read, text, stamp, mtimeMs } = await readConfigFile(this.file);
    const before = this.held;
    // The same text under a new stamp (a touch, a rewrite of the same bytes): the same answers, so nothing made from them is made again.
    const held: Held =
      before && text !== undefined && text === before.text
        ? { ...before, stamp, mtimeMs, readAt }
        : { stamp, read, text, mtimeMs, readAt, answers: new LRUCache({ max: HOSTS_KEPT }) };
    if (order > this.heldFrom) {
      this.held = held;
      this.heldFrom = order;
    }
    return held;
  }
}
