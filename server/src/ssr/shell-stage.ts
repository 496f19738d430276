import { readFile, stat } from 'node:fs/promises';
import type { Logger } from '@portico/platform/logging';
import { LANGUAGES, type Language } from '@portico/contract/languages';
import { tabSections } from '@portico/shared-config/config';
import type { FromShellWorker, RenderedShell, ShellRequest, ToShellWorker } from '@portico/node-sections/protocol';
import type { Site } from '../site-context';
import { SHELL_MESSAGE_BYTES, SHELL_RENDER_KILL_MS, SSR_LIMITS } from './render-limits';
import { containedNodeOptions } from './sandbox';
import { idsIn } from './section-html';
import { SingleFlight } from './single-flight';
import { Supervisor } from './supervisor';
import { answerOf, startWorker } from './worker-pool';
import type { WorkerProcess } from './worker-process';

type ShellWorker = WorkerProcess<ToShellWorker, FromShellWorker>;

/** The built host index.html, and its modification time and size (what the page's key knows it by). */
export interface Template {
  text: string;
  stamp: string;
}

/** A shell as pages are composed from it: with the ids it uses (no section may take one) and its key. */
export interface ShellEntry extends RenderedShell {
  ids: ReadonlySet<string>;
  key: string;
}

export interface ShellStageOptions {
  /** Its worker died (or could not start), counted for the metrics. */
  onWorkerDeath?: () => void;
  /** The built shell worker (SHELL_WORKER_PATH). */
  workerFile: string;
  /** The built host index.html the shell is rendered into. */
  templateFile: string;
  heapMb: number;
  /** Off: every page asks the worker again (PORTICO_SSR_CACHE=0). */
  caching: boolean;
  /** The configs a new worker warms up with. */
  sites: () => Promise<Site[]>;
  /** Another shell worker answers from now on: pages made with the one before are not served again. */
  onSwitch: () => void;
  log: Logger;
}

/**
 * The stage that gets the shell (head, nav, notices, footer) from the shell
 * worker: the host's own code, trusted, not sandboxed, but with no secrets
 * and Node's permission model. Its worker is never set aside: it is
 * restarted, at most every 30 s.
 */
export class ShellStage {
  private readonly shells: SingleFlight<ShellEntry>;
  private readonly supervisor: Supervisor<ShellWorker>;
  private template: Template | undefined;

  constructor(private readonly options: ShellStageOptions) {
    this.shells = new SingleFlight({ maxBytes: SSR_LIMITS.shellCacheBytes, bytesOf: (entry) => 2 * entry.html.length, keep: options.caching });
    const { workerFile, heapMb, log } = options;
    this.supervisor = new Supervisor<ShellWorker>({
      name: 'the shell worker',
      start: () =>
        startWorker<ToShellWorker, FromShellWorker>(
          'shell worker',
          { file: process.execPath, args: [...containedNodeOptions(workerFile, heapMb), workerFile], env: { NODE_ENV: 'production' } },
          SHELL_MESSAGE_BYTES,
          log,
        ),
      log,
      quarantineAfter: Number.POSITIVE_INFINITY,
      onDeath: options.onWorkerDeath,
      onLive: () => {
        this.shells.clear();
        options.onSwitch();
      },
    });
  }

  /** The live worker's generation (undefined: none live), for the page's key and for readiness. */
  get generation(): number | undefined {
    return this.supervisor.generation;
  }

  get pid(): number | undefined {
    return this.supervisor.worker?.pid;
  }

  get bytes(): number {
    return this.shells.bytes;
  }

  /** index.html as built now, read again only when its time or size changed; undefined while there is none. */
  async readTemplate(): Promise<Template | undefined> {
    try {
      const { mtimeMs, size } = await stat(this.options.templateFile);
      const stamp = `${mtimeMs}:${size}`;
      if (this.template?.stamp !== stamp) this.template = { text: await readFile(this.options.templateFile, 'utf8'), stamp };
      return this.template;
    } catch {
      return undefined;
    }
  }

  /** Starts the shell worker for the built worker file (a new build of it, a new generation). */
  async start(): Promise<void> {
    const stamp = await stat(this.options.workerFile).then(({ mtimeMs, size }) => `${mtimeMs}:${size}`);
    this.supervisor.want({ key: stamp, prepare: (worker) => this.prepare(worker) });
  }

  whenSettled(): Promise<void> {
    return this.supervisor.whenSettled();
  }

  /** The shell for `request` (its key covers everything the request holds), from the cache, a render under way, or the worker; no later than `deadline`. */
  get(request: ShellRequest, key: string, deadline: number): Promise<ShellEntry | undefined> {
    const cached = this.shells.cached(key);
    if (cached) return Promise.resolve(cached);
    const worker = this.supervisor.worker;
    if (!worker) return Promise.resolve(undefined);
    return this.shells.get(key, () => this.render(worker, request, key), deadline);
  }

  close(): Promise<void> {
    return this.supervisor.close();
  }

  private async render(worker: ShellWorker, request: ShellRequest, key: string): Promise<ShellEntry | undefined> {
    const answer = answerOf(
      await worker.ask({ type: 'render', page: request }, { answerWithinMs: SHELL_RENDER_KILL_MS, killAfterMs: SHELL_RENDER_KILL_MS }),
      'shell',
      'a page',
    );
    if (answer && 'failed' in answer) this.options.log.error(`the shell worker could not render a page: ${answer.failed}`);
    if (!answer || 'failed' in answer) return undefined;
    const { html, fallbacks, styles, overridden } = answer.ok;
    return { html, fallbacks, styles, overridden, ids: idsIn(html), key };
  }

  /** A new worker renders each language's page for each current config before it goes live: its first pages are not its slowest. */
  private async prepare(worker: ShellWorker): Promise<boolean> {
    const page = await this.readTemplate();
    if (!page) return worker.alive;
    for (const site of await this.options.sites()) {
      for (const language of LANGUAGES) {
        const request = shellRequest(page, site, language, '/', language === 'en' ? '' : '?type=2', 'http://localhost', {});
        const answer = answerOf(
          await worker.ask({ type: 'render', page: request }, { answerWithinMs: SHELL_RENDER_KILL_MS, killAfterMs: SHELL_RENDER_KILL_MS }),
          'shell',
          'a page',
        );
        if (!worker.alive) return false;
        if (!answer || 'failed' in answer)
          this.options.log.warn(`the shell worker could not render a page while warming: ${answer ? answer.failed : 'no answer'}`);
      }
    }
    return worker.alive;
  }
}

/** What the shell worker is asked for one page: everything comes in the message; it reads no file. */
export function shellRequest(
  page: Template,
  site: Site,
  language: Language,
  pathname: string,
  search: string,
  origin: string,
  stylesheets: ShellRequest['stylesheets'],
): ShellRequest {
  return {
    template: page.text,
    language,
    pathname,
    search,
    origin,
    config: site.config,
    problems: site.problems,
    sections: tabSections(site.config, language),
    stylesheets,
  };
}
