import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parsePageData, PAGE_DATA_ID } from '@portico/contract/page-data';
import type { SectionId } from '@portico/contract/sections';
import { builtHost } from '@portico/testing/built-apps';
import { sampleConfig } from '@portico/testing/sample-config';
import { startPortico, type RunningPortico } from '../../portico-server';
import type { SectionSignal } from '../server-rendering';
import { announce, HostileCdn, MEMORY_BOMB, MICROTASK_LOOP, MUTATION, RENDER_LOOP, TOP_LEVEL_LOOP } from '@portico/testing/hostile-builds';

// Section builds that do what an attacker who controls a section's CDN
// would make them do, rendered by the real server with the real host build
// (its shell and section workers), in the strongest sandbox this machine
// has. Each test asserts what the attacker wanted did not happen, and that
// the page still arrives. The kernel's layers on their own: sandbox.test.ts;
// a section reading the server's secrets: serve-process.test.ts.

jest.setTimeout(120_000);

let cdn: HostileCdn;
let root: string;
beforeAll(async () => {
  root = builtHost();
  cdn = await HostileCdn.start();
}, 300_000);
afterAll(() => cdn.close());

/** A server whose config.json (`file`) the test edits, as an operator would. */
async function serve(remotes: Record<string, string>, cache = true) {
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-hostile-'));
  const file = path.join(folder, 'config.json');
  writeFileSync(file, JSON.stringify({ ...sampleConfig, remotes }));
  const log: string[] = [];
  /** The sections whose plans were set aside, as the server tells whoever asked to know. */
  const setAside: SectionId[] = [];
  // A generous page budget: a busy machine must not turn a page into the client-rendered one while a test reads it.
  const ssr = { cache, budgetMs: 5000, onSignal: ({ section, kind }: SectionSignal) => kind === 'set-aside' && setAside.push(section) };
  const running = await startPortico({ rootDir: root, basePort: 0, host: '127.0.0.1', configPath: file, log: (line) => log.push(line), ssr });
  return {
    running,
    log,
    setAside,
    configure: (next: Record<string, string>) => writeFileSync(file, JSON.stringify({ ...sampleConfig, remotes: next })),
    close: async () => {
      await running.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

type Served = Awaited<ReturnType<typeof serve>>;

async function page(running: RunningPortico, search = ''): Promise<{ status: number; html: string }> {
  const response = await fetch(`${running.url}/${search}`);
  return { status: response.status, html: await response.text() };
}

const pageDataOf = (html: string) => parsePageData(new RegExp(`<script type="application/json" id="${PAGE_DATA_ID}">(.*?)</script>`).exec(html)?.[1]);

/** Polls until `check` holds, within a generous bound: the server's own background work sets the pace. */
async function until(what: string, check: () => boolean | Promise<boolean>, seconds = 60): Promise<void> {
  for (const started = Date.now(); !(await check()); ) {
    if (Date.now() - started > seconds * 1000) throw new Error(`${what}: not within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether a process of that id is running (a zombie, exited but not reaped, counts as gone). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

describe('sections that loop or take all memory', () => {
  let site: Served;
  beforeAll(async () => {
    site = await serve({
      home: cdn.publish('render-loop', 'remote-home', RENDER_LOOP),
      about: cdn.publish('microtask-loop', 'remote-about', MICROTASK_LOOP),
      contact: cdn.publish('memory-bomb', 'remote-contact', MEMORY_BOMB),
    });
  });
  afterAll(() => site.close());

  test('each is killed by the front server, restarted with growing waits, then set aside until its build changes; the page arrives throughout', async () => {
    const seen = new Set<number>();
    await until('all three set aside', async () => {
      const { status, html } = await page(site.running);
      // The shell, server-rendered, whatever the sections do.
      expect(status).toBe(200);
      expect(html).toContain('>About Us<');
      for (const id of ['home', 'about', 'contact'] as const) {
        const pid = site.running.renderWorker()!.sections[id].pid;
        if (pid !== undefined) seen.add(pid);
      }
      const { sections } = site.running.renderWorker()!;
      return sections.home.quarantined && sections.about.quarantined && sections.contact.quarantined;
    });
    const log = site.log.join('\n');
    expect(log).toMatch(/the home section's worker did not answer within 3 s; the browser renders it meanwhile, another worker starts in 0\.5 s/);
    expect(log).toMatch(/the home section's worker did not answer within 3 s; the browser renders it meanwhile, another worker starts in 2 s/);
    // Its microtasks starve the worker's event loop: whichever request comes next goes unanswered.
    expect(log).toMatch(/the about section's worker did not answer within [35] s/);
    expect(log).toMatch(/the contact section's worker used \d+ MB, over its 256 MB/);
    for (const id of ['home', 'about', 'contact']) {
      expect(log).toContain(`the ${id} section's worker`);
      expect(log).toMatch(new RegExp(`the ${id} section's worker .*3 times in a row: this build is rendered in the browser only until it changes`));
    }
    expect([...site.setAside].sort()).toEqual(['about', 'contact', 'home']);
    // Nothing of theirs runs any more: no worker is left spinning a core or holding memory.
    await until('every worker they had gone', () => [...seen].every((pid) => !running(pid)), 10);
    const { html } = await page(site.running);
    expect(pageDataOf(html)?.rendered).toEqual([]);
    expect(html).toContain('Loading Contact us…');

    // A new build of Home is started at once, and rendered again.
    site.configure({
      home: cdn.publish('home', 'remote-home'),
      about: cdn.publish('microtask-loop', 'remote-about', MICROTASK_LOOP),
      contact: cdn.publish('memory-bomb', 'remote-contact', MEMORY_BOMB),
    });
    await until('the new Home rendered on the server', async () => pageDataOf((await page(site.running)).html)?.rendered.includes('home') ?? false);
  });
});

describe('sections that change what they are given, or never finish loading', () => {
  let site: Served;
  beforeAll(async () => {
    site = await serve(
      {
        home: cdn.publish('mutation', 'remote-home', MUTATION),
        about: cdn.publish('top-level-loop', 'remote-about', TOP_LEVEL_LOOP),
        contact: cdn.publish('contact-a', 'remote-contact', announce('A')),
      },
      // Every page rendered anew: a second visitor's page is made after the first one's writes.
      false,
    );
  });
  afterAll(() => site.close());

  test("a section that writes to the texts and the config changes nothing for the next visitor: the nav reads Home, the company's name is the operator's", async () => {
    const first = await page(site.running);
    const second = await page(site.running);
    for (const { html } of [first, second]) {
      expect(html).toMatch(/role="tab"[^>]*>(<[^>]+>)*Home</);
      expect(html).not.toContain('Home*');
      expect(html).not.toContain(`${sampleConfig.comName}*`);
    }
    // The section rendered on the server each time and saw what it was given, unchanged by its earlier render.
    expect(second.html).toMatch(new RegExp(`RENDER \\d+ saw Home and ${sampleConfig.comName}`));
    expect(pageDataOf(second.html)?.rendered).toContain('home');
  });

  test('a build whose top level never ends is cut off as it loads and left to the browser; its worker goes on', async () => {
    await until('About refused', () => site.log.some((line) => line.includes("the about section's node build") && line.includes('threw while it was evaluated')));
    const { html } = await page(site.running);
    expect(pageDataOf(html)?.rendered).not.toContain('about');
    expect(site.running.renderWorker()!.sections.about.pid).toBeDefined();
  });

  test('a new build in config.json is loaded without a visitor, and the replaced one never runs again', async () => {
    await until('build A live', () => site.running.renderWorker()!.sections.contact.generation !== undefined);
    const generation = site.running.renderWorker()!.sections.contact.generation!;
    const evaluationsOfA = () => site.log.filter((line) => line.endsWith('build A evaluated')).length;
    const beforeSwap = evaluationsOfA();
    site.configure({
      home: cdn.publish('mutation', 'remote-home', MUTATION),
      about: cdn.publish('top-level-loop', 'remote-about', TOP_LEVEL_LOOP),
      contact: cdn.publish('contact-b', 'remote-contact', announce('B')),
    });
    // No page is asked for meanwhile.
    await until('build B live', () => (site.running.renderWorker()!.sections.contact.generation ?? 0) > generation);
    expect(site.log.some((line) => line.endsWith('build B evaluated'))).toBe(true);
    expect(evaluationsOfA()).toBe(beforeSwap);
  });
});

describe('a section worker killed from outside', () => {
  let site: Served;
  beforeAll(async () => {
    site = await serve({ home: cdn.publish('home', 'remote-home'), about: cdn.publish('about', 'remote-about'), contact: cdn.publish('contact', 'remote-contact') });
  });
  afterAll(() => site.close());

  test('killed, and its replacement killed as soon as it appears: a worker is started again, and the section is rendered on the server again', async () => {
    const contact = () => site.running.renderWorker()!.sections.contact;
    await until('Contact live', () => contact().pid !== undefined);
    const first = contact().pid!;
    process.kill(first, 'SIGKILL');
    // The replacement, the moment it is there (starting or live).
    await until('a replacement', () => contact().pid !== undefined && contact().pid !== first);
    process.kill(contact().pid!, 'SIGKILL');
    await until('a third worker live and rendering', async () => pageDataOf((await page(site.running)).html)?.rendered.includes('contact') ?? false);
    expect(contact().quarantined).toBe(false);
  });
});

test('no sandbox on this machine: the page is still server-rendered around the sections, no section code is fetched or run, and the log says how to fix it', async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-no-sandbox-'));
  const file = path.join(folder, 'config.json');
  writeFileSync(file, JSON.stringify({ ...sampleConfig, remotes: { home: cdn.publish('unsandboxed-home', 'remote-home') } }));
  const log: string[] = [];
  const running = await startPortico({
    rootDir: root,
    basePort: 0,
    host: '127.0.0.1',
    configPath: file,
    log: (line) => log.push(line),
    // As on a machine without bubblewrap where the server is not root.
    ssr: { sandbox: { bwrapPath: undefined, isRoot: false } },
  });
  try {
    const { html } = await page(running);
    expect(html).toContain('>About Us<');
    expect(pageDataOf(html)?.rendered).toEqual([]);
    expect(html).toContain('Loading Home…');
    expect(log.join('\n')).toContain('sections are rendered in the browser only: no sandbox for section code: bubblewrap is not installed and the server is not root; install bubblewrap (`apt-get install bubblewrap`)');
    expect(cdn.requests.filter((request) => request.startsWith('/unsandboxed-home/server/'))).toEqual([]);
  } finally {
    await running.close();
    rmSync(folder, { recursive: true, force: true });
  }
});
