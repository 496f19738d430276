import { existsSync } from 'node:fs';
import path from 'node:path';
import { readHydration, type Hydration } from '@portico/contract/hydration';
import { sectionIdProblem } from '@portico/contract/section-entries';

export interface AppOptions {
  /**
   * Which app this is: `host`, or the id of the section a remote builds (a
   * built-in one, or any id an integrator may add: the factory knows no list
   * of sections). Decides its federation name (`portico_<id>`, `-` as `_`)
   * and, for the built-in apps, its port.
   */
  app: string;
  /**
   * A remote's dev server port. The built-in apps have theirs (PORT+0..3);
   * an added section's standalone dev server takes the first free port from
   * PORT+10 unless this names one.
   */
  port?: number;
  /** The app's folder, holding `src/index.ts` (and the host's `src/index.html`). */
  dir: string;
  /** Remotes only: the file under `src/` that is the section they expose. */
  exposes?: string;
  /**
   * Remotes only, and required of them: how the section hydrates in the
   * page (`static`: the server's HTML is final and its code is never sent;
   * or `interactive`, and when). Written into mf-manifest.json as
   * `metaData.hydration`, the section contract's declaration.
   */
  hydration?: Hydration;
  /**
   * The host only: the file under `src/` of the server-rendered page's
   * script (tabs, hash, scrolling, language links, and each island's
   * hydration when it is due), built without Module Federation so the page
   * starts with a few kilobytes instead of the federation runtime
   * (page-script-build.ts).
   */
  pageScript?: string;
  /**
   * The host only, with `pageScript`: the file under `src/` of the
   * server-rendered page's islands (React, the sections' loader), built
   * without Module Federation; sections with an island script are loaded
   * through it (islands-build.ts).
   */
  islandsScript?: string;
  /**
   * The host only: the files under `src/` of its server workers (the shell
   * worker and the section worker), built beside the browser build in
   * production (server-workers-build.ts).
   */
  serverWorkers?: { shell: string; section: string };
}

/** Refuses options the factory cannot build, naming the one at fault. */
export function checkOptions(options: AppOptions): void {
  const idProblem = options.app === 'host' ? undefined : sectionIdProblem(options.app);
  if (idProblem !== undefined) {
    throw new Error(`createConfig: app must be "host" or a section id: ${idProblem}`);
  }
  if (options.port !== undefined && (!Number.isInteger(options.port) || options.port < 1 || options.port > 65_535)) {
    throw new Error(`createConfig: port must be a whole number from 1 to 65535, got ${String(options.port)}`);
  }
  if (!path.isAbsolute(options.dir) || !existsSync(path.join(options.dir, 'src/index.ts'))) {
    throw new Error(`createConfig: dir must be the absolute path of a folder with src/index.ts, got "${options.dir}"`);
  }
  if (options.app === 'host' && options.exposes) {
    throw new Error('createConfig: the host exposes nothing; remove `exposes`');
  }
  if (options.app === 'host' && options.hydration) {
    throw new Error('createConfig: the host is not a section; remove `hydration`');
  }
  if (options.pageScript !== undefined) {
    if (options.app !== 'host') throw new Error('createConfig: only the host has a page script; remove `pageScript`');
    if (!existsSync(path.join(options.dir, options.pageScript))) {
      throw new Error(`createConfig: pageScript "${options.pageScript}" does not exist in ${options.dir}`);
    }
  }
  if (options.islandsScript !== undefined) {
    if (options.pageScript === undefined) throw new Error("createConfig: `islandsScript` is the server-rendered page's, which needs a `pageScript`");
    if (!existsSync(path.join(options.dir, options.islandsScript))) {
      throw new Error(`createConfig: islandsScript "${options.islandsScript}" does not exist in ${options.dir}`);
    }
  }
  if (options.serverWorkers !== undefined) {
    if (options.app !== 'host') throw new Error('createConfig: only the host has server workers; remove `serverWorkers`');
    for (const [worker, entry] of Object.entries(options.serverWorkers)) {
      if (!existsSync(path.join(options.dir, entry))) {
        throw new Error(`createConfig: serverWorkers.${worker} "${entry}" does not exist in ${options.dir}`);
      }
    }
  }
  if (options.app !== 'host') {
    if (!options.exposes) throw new Error(`createConfig: remote "${options.app}" must name the file it exposes`);
    const hydration = readHydration(options.hydration ?? null);
    if ('problem' in hydration) {
      throw new Error(
        `createConfig: remote "${options.app}" must declare how it hydrates ({ mode: 'static' } or { mode: 'interactive', when: [...] }): ${hydration.problem}`,
      );
    }
    if (!existsSync(path.join(options.dir, options.exposes))) {
      throw new Error(`createConfig: exposes "${options.exposes}" does not exist in ${options.dir}`);
    }
  }
}
