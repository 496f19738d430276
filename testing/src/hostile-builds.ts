import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtRemote } from './built-apps';
import { serveDist, type DistServer } from './serve-dist';

type SectionFolder = 'remote-home' | 'remote-about' | 'remote-contact';

interface Manifest {
  metaData: { ssrRemoteEntry: { name: string; path: string; integrity: string } };
}

/**
 * A CDN of section builds as an attacker who controls one section's CDN
 * serves them: each variant is a real section's node build with a payload
 * appended, named and hashed as its manifest says (as a compromised team or
 * CDN would publish it), so every check the server makes on its way in
 * passes and the payload runs. The section's browser build is served beside
 * it as built, so a browser can load the section where the server leaves it
 * to the browser.
 */
export class HostileCdn {
  private constructor(
    private readonly root: string,
    private readonly server: DistServer,
  ) {}

  static async start(): Promise<HostileCdn> {
    const root = mkdtempSync(path.join(tmpdir(), 'portico-hostile-cdn-'));
    return new HostileCdn(root, await serveDist(root));
  }

  get origin(): string {
    return this.server.origin;
  }

  /** The paths asked for, in order: what the server fetched. */
  get requests(): readonly string[] {
    return this.server.requests;
  }

  /**
   * Publishes `section`'s real build with `payload` appended as `variant`;
   * resolves the URL of its mf-manifest.json. An empty payload publishes the
   * build as it is.
   */
  publish(variant: string, section: SectionFolder, payload = '', manifestPadding = 0): string {
    const dist = builtRemote(section);
    const manifest = JSON.parse(readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8')) as Manifest & Record<string, unknown>;
    const entry = manifest.metaData.ssrRemoteEntry;
    const code = `${readFileSync(path.join(dist, entry.path, entry.name), 'utf8')}\n${payload}`;
    const integrity = `sha384-${createHash('sha384').update(code).digest('base64')}`;
    const name = `remoteEntry.${createHash('sha384').update(code).digest('hex').slice(0, 10)}.js`;
    const folder = path.join(this.root, variant);
    cpSync(dist, folder, { recursive: true });
    mkdirSync(path.join(folder, entry.path), { recursive: true });
    writeFileSync(path.join(folder, entry.path, name), code);
    manifest.metaData.ssrRemoteEntry = { ...entry, name, integrity };
    // A manifest grown to a given size (a field the checks ignore): the inlining cap's test.
    if (manifestPadding > 0) manifest.padding = 'x'.repeat(manifestPadding);
    writeFileSync(path.join(folder, 'mf-manifest.json'), JSON.stringify(manifest));
    // The build's precompressed copies are of the manifest as built.
    for (const suffix of ['.br', '.gz']) rmSync(path.join(folder, `mf-manifest.json${suffix}`), { force: true });
    return `${this.origin}/${variant}/mf-manifest.json`;
  }

  /**
   * Makes the browser build `publish` wrote for `variant` run `payload` as
   * its remoteEntry.js is evaluated (named and hashed anew, as a team that
   * controls its CDN publishes it), and its manifest declare `hydration`:
   * what a section team does to get its script into the visitor's page.
   */
  scripted(variant: string, payload: string, hydration: unknown): void {
    const file = path.join(this.root, variant, 'mf-manifest.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as {
      metaData: { remoteEntry: { name: string; path: string; integrity: string } } & Record<string, unknown>;
    };
    const entry = manifest.metaData.remoteEntry;
    const code = `${readFileSync(path.join(this.root, variant, entry.path, entry.name), 'utf8')}\n${payload}`;
    const name = `remoteEntry.${createHash('sha384').update(code).digest('hex').slice(0, 10)}.js`;
    writeFileSync(path.join(this.root, variant, entry.path, name), code);
    manifest.metaData.remoteEntry = { ...entry, name, integrity: `sha384-${createHash('sha384').update(code).digest('base64')}` };
    manifest.metaData.hydration = hydration;
    writeFileSync(`${file}.next`, JSON.stringify(manifest));
    renameSync(`${file}.next`, file);
  }

  /**
   * Makes the manifest `publish` wrote for `variant` name these stylesheets
   * for its section, each with its hash, in place of its own: each written
   * beside it, or (`missing`) named with the hash of that text and not
   * there. Resolves each one's path on the CDN.
   */
  styled(variant: string, sheets: Record<string, { css: string; missing?: boolean }>): string[] {
    const file = path.join(this.root, variant, 'mf-manifest.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as {
      metaData: { integrity?: Record<string, string> };
      exposes: { path: string; assets: { css: { sync: string[] } } }[];
    };
    const integrity = manifest.metaData.integrity ?? {};
    for (const [name, { css, missing }] of Object.entries(sheets)) {
      integrity[name] = `sha384-${createHash('sha384').update(css).digest('base64')}`;
      if (!missing) writeFileSync(path.join(this.root, variant, name), css);
    }
    manifest.metaData.integrity = integrity;
    manifest.exposes.find((expose) => expose.path === './section')!.assets.css.sync = Object.keys(sheets);
    // Renamed into place, as an upload tool does: a poll must not read a half-written manifest.
    writeFileSync(`${file}.next`, JSON.stringify(manifest));
    renameSync(`${file}.next`, file);
    return Object.keys(sheets).map((name) => `/${variant}/${name}`);
  }

  /** Where the node build `publish` wrote for `variant` is on the CDN. */
  nodeBuildPath(variant: string): string {
    const { path: folder, name } = this.manifestOf(variant).metaData.ssrRemoteEntry;
    return `/${variant}/${folder}/${name}`;
  }

  /**
   * Makes `variant`'s manifest the one `publish` wrote for `from`, its node
   * build copied beside it: a new version at the same URL, as a team that
   * redeploys again and again serves it. Renamed into place, as an upload
   * tool does.
   */
  republish(variant: string, from: string): void {
    const manifest = this.manifestOf(from);
    const { path: folder, name } = manifest.metaData.ssrRemoteEntry;
    mkdirSync(path.join(this.root, variant, folder), { recursive: true });
    copyFileSync(path.join(this.root, from, folder, name), path.join(this.root, variant, folder, name));
    const file = path.join(this.root, variant, 'mf-manifest.json');
    writeFileSync(`${file}.next`, JSON.stringify(manifest));
    renameSync(`${file}.next`, file);
  }

  /**
   * Answers `pathOnCdn` (a file published here) `ms` after it is asked for,
   * as a slow CDN would; resolves when it first answered (performance.now()).
   */
  slow(pathOnCdn: string, ms: number): Promise<number> {
    return new Promise((resolve) => {
      this.server.overrides.set(pathOnCdn, (_req, res) => {
        setTimeout(() => {
          let body: Buffer;
          try {
            body = readFileSync(path.join(this.root, pathOnCdn));
          } catch {
            // The CDN was closed while the answer was due: nobody waits for it.
            res.destroy();
            return;
          }
          res.writeHead(200, this.server.headersOf(pathOnCdn)).end(body);
          resolve(performance.now());
        }, ms);
      });
    });
  }

  private manifestOf(variant: string): Manifest & Record<string, unknown> {
    return JSON.parse(readFileSync(path.join(this.root, variant, 'mf-manifest.json'), 'utf8')) as Manifest & Record<string, unknown>;
  }

  async close(): Promise<void> {
    await this.server.close();
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** What a payload wraps the container's Section with: `Section` is the real one, `findings` what the payload found. */
const wrapSection = (render: string) => `
  // webpack defines the container's init and get as getters: the payload puts a container of its own in its place.
  const container = module.exports;
  let shared;
  module.exports = {
    init: (scope) => {
      shared = scope;
      return container.init(scope);
    },
    get: (request) =>
      Promise.resolve(container.get(request)).then((factory) => () => {
        const real = factory();
        const Section = real.Section;
        const sharedConfig = () => Object.values(shared['@portico/shared-config'])[0].get()();
        return { ...real, Section: function Hostile() { ${render} } };
      }),
  };
`;

export interface StealTargets {
  /** A secret in the front server's environment. */
  secretName: string;
  /** Files the section must not read: the data folder's admin token, a file of the repository. */
  files: string[];
  /** The front server's process, and another one's to signal. */
  frontPid: number;
  otherPid: number;
  /** Where the contact endpoint and a control endpoint listen (loopback). */
  ports: number[];
}

/**
 * The review's attack: leave the context, then read the environment, the
 * front server's /proc environ, the data folder and the repository; run a
 * command; connect to the server's endpoints; signal processes. Whatever
 * each attempt got (or why not) is rendered into the section's HTML after
 * `STOLEN:`, the way the review rendered the stolen messages into the page.
 */
export function stealPayload(targets: StealTargets): string {
  return `;(function () {
  const findings = {};
  const attempt = (name, run) => {
    try {
      findings[name] = String(run()).slice(0, 300);
    } catch (error) {
      findings[name] = 'refused: ' + String((error && (error.code || error.name)) || error);
    }
  };
  let proc;
  attempt('escape through console', () => { proc = console.log.constructor('return process')(); return typeof proc; });
  attempt('escape through Function', () => { proc = proc || Function('return process')(); return typeof proc; });
  attempt('escape through a shared module', () => { proc = proc || (() => {}).constructor.constructor('return process')(); return typeof proc; });
  attempt('globals', () => [typeof process, typeof require, typeof fetch, typeof setTimeout].join(' '));
  if (proc) {
    const load = (name) => proc.mainModule ? proc.mainModule.require(name) : proc.getBuiltinModule(name);
    attempt('env', () => proc.env[${JSON.stringify(targets.secretName)}]);
    attempt('environ', () => load('fs').readFileSync('/proc/' + ${targets.frontPid} + '/environ', 'utf8'));
    attempt('parent environ', () => load('fs').readFileSync('/proc/' + proc.ppid + '/environ', 'utf8'));
    ${targets.files.map((file, index) => `attempt('file ${index}', () => load('fs').readFileSync(${JSON.stringify(file)}, 'utf8'));`).join('\n    ')}
    attempt('command', () => load('child_process').execSync('id').toString());
    ${targets.ports.map((port) => `attempt('connect ${port}', () => { load('net').connect(${port}, '127.0.0.1').on('error', () => {}); return 'tried'; });`).join('\n    ')}
    attempt('signal other', () => proc.kill(${targets.otherPid}, 'SIGKILL'));
    attempt('signal parent', () => proc.kill(proc.ppid, 'SIGKILL'));
  }
  ${wrapSection("return [Section(), 'STOLEN:' + JSON.stringify(findings)];")}
})();`;
}

/** A render that never ends. */
export const RENDER_LOOP = `;(function () { ${wrapSection('for (;;) {}')} })();`;

/**
 * A render that never ends and spends no CPU: its thread waits for ever on
 * a cell nobody changes (`Atomics.wait`). The same deadline kills its worker
 * as kills RENDER_LOOP's, with the same line, without a core burnt for each
 * deadline: for tests whose point is what follows a kill, not the kill of
 * a spinning worker (that is RENDER_LOOP's, in hostile-sections.test.ts).
 */
export const RENDER_BLOCKS = `;(function () {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  ${wrapSection('Atomics.wait(cell, 0, 0);')}
})();`;

/** A render that throws, every time: the section is left to the browser (and, in a canary, counted against its release). */
export const RENDER_THROWS = `;(function () { ${wrapSection("throw new Error('this build throws while rendering');")} })();`;

/** A container whose `init` (the share scope handed in, before any render) starts a loop of microtasks: its worker never answers the load. */
export const INIT_MICROTASK_LOOP = `;(function () {
  const container = module.exports;
  module.exports = {
    init: (scope) => {
      (function spin() { Promise.resolve().then(spin); })();
      return container.init(scope);
    },
    get: (request) => container.get(request),
  };
})();`;

/** Module evaluation that never ends: a plain loop, and a loop of microtasks (which no evaluation timeout stops). */
export const TOP_LEVEL_LOOP = ';for (;;) {}';
export const MICROTASK_LOOP = ';(function spin() { Promise.resolve().then(spin); })();';

/**
 * A build that spins a core from the moment it is evaluated, with a timer
 * the language itself gives (`Atomics.waitAsync`, no `setTimeout` in its
 * context): 40 ms busy, then 2 ms of waiting, again and again. Between the
 * busy spells its worker's event loop runs, so every render is answered in
 * time and no deadline sees it (issue 46: 75-80 % of a core for 176 s).
 */
export const ATOMICS_TIMER_LOOP = `;(function () {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  (function burn() {
    const until = Date.now() + 40;
    while (Date.now() < until) {}
    Atomics.waitAsync(cell, 0, 0, 2).value.then(burn);
  })();
})();`;

/**
 * A section that answers its renders as usual, and 0.3 s after its first
 * starts writing to its output without end: its worker is killed for that,
 * with what it answered before in the server's hands (issue 46). Its HTML
 * carries a mark; its first render says so in the server's log.
 */
export const ANSWER_THEN_FLOOD = `;(function () {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  let rendered = 0;
  const flood = () => { console.log('x'.repeat(64 * 1024)); Atomics.waitAsync(cell, 0, 0, 1).value.then(flood); };
  ${wrapSection("rendered += 1; if (rendered === 1) { console.log('rendered, flooding in 0.3 s'); Atomics.waitAsync(cell, 0, 0, 300).value.then(flood); } return [Section(), 'ANSWERED BEFORE ITS FLOOD'];")}
})();`;

/** A render that takes ArrayBuffers (outside V8's heap limit) until it is stopped: a gigabyte and more. */
export const MEMORY_BOMB = `;(function () { ${wrapSection('const held = []; for (;;) held.push(new Uint8Array(100 * 1024 * 1024).fill(1));')} })();`;

/**
 * A section that writes to what it is given (the host's texts and the
 * config) while it renders, then renders as usual with a mark of how many
 * times it rendered. Sloppy-mode code: a write to a frozen object fails
 * silently here, as it would in most bundles.
 */
export const MUTATION = `;(function () {
  let renders = 0;
  ${wrapSection(`
    const sc = sharedConfig();
    const text = sc.useText();
    const config = sc.useConfig();
    try { text.nav.tabs.home += '*'; } catch (error) {}
    try { config.comName += '*'; } catch (error) {}
    try { sc.SECTION_IDS.push('evil'); } catch (error) {}
    renders += 1;
    return [Section(), 'RENDER ' + renders + ' saw ' + text.nav.tabs.home + ' and ' + config.comName];
  `)}
})();`;

/**
 * A section whose HTML is `bytes` longer than its own (text React writes as
 * it is): one letter repeated, or letters drawn at random (the same ones at
 * each render), which compress about as little as text can.
 */
export const bigOutput = (bytes: number, text: 'repeated' | 'random' = 'repeated') =>
  text === 'repeated'
    ? `;(function () { ${wrapSection(`return [Section(), 'x'.repeat(${bytes})];`)} })();`
    : `;(function () {
  let seed = 34, letters = '';
  for (let at = 0; at < ${bytes}; at += 1) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    letters += 'abcdefghijklmnopqrstuvwxyz  '[(seed >>> 16) % 28];
  }
  ${wrapSection('return [Section(), letters];')}
})();`;

/** An element a payload adds to a section's HTML: its tag, its props as React takes them, and its children. */
export type ExtraElement = [tag: string, props: Record<string, unknown> | null, children?: (string | ExtraElement)[]];

/**
 * A section that renders, after its own HTML, the elements `extra`
 * describes, made with the section's own React: any element and attribute
 * React writes, as a build whose HTML reaches for the page's own parts would.
 */
export const extraHtml = (extra: readonly ExtraElement[]) =>
  `;(function () { ${wrapSection(`
  const React = Object.values(shared.react)[0].get()();
  const make = ([tag, props, children]) => React.createElement(tag, props, ...(children || []).map((child) => (typeof child === 'string' ? child : make(child))));
  return [Section(), ...${JSON.stringify(extra)}.map(make)];
`)} })();`;

/** A build that says, as it is evaluated, which one it is (its worker's output reaches the server's log). */
export const announce = (name: string) => `;console.log(${JSON.stringify(`build ${name} evaluated`)});`;

/** A section that says in the server's log each time it renders (`<name> rendered`), and writes `name` after its HTML. */
export const renderLog = (name: string) =>
  `;(function () { ${wrapSection(`console.log(${JSON.stringify(`${name} rendered`)}); return [Section(), ${JSON.stringify(name)}];`)} })();`;

/**
 * Characters JavaScript's `\s` (and `trim()`) count as space and HTML does
 * not: a browser keeps them inside a tag or attribute name, so
 * `<div\u00a0></div>` opens an unknown element and its end tag closes the
 * nearest real <div> around it (issue 46).
 */
export const NON_HTML_SPACES = [...'\v\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'];

/** A character's code point as people write it (`U+00A0`). */
export const codePoint = (character: string) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Elements named with `space` after their name: in a browser, their end tags close the two containers around them, then the section. */
export const nameSpaceEscape = (space: string, after: string) => `<div${space}></div><div${space}></div><section${space}></section>${after}`;
