import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { linesLogger } from '@portico/platform/testing';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parsePageData, PAGE_DATA_ID } from '@portico/contract/page-data';
import type { SectionId } from '@portico/contract/sections';
import { builtHost } from '@portico/testing/built-apps';
import { sampleConfig } from '@portico/testing/sample-config';
import { startPortico, type RunningPortico } from '../../portico-server';
import type { SectionSignal, ServerRenderingOptions } from '../server-rendering';
import { announce, HostileCdn, INIT_MICROTASK_LOOP, MEMORY_BOMB, MICROTASK_LOOP, MUTATION, RENDER_LOOP, TOP_LEVEL_LOOP } from '@portico/testing/hostile-builds';
import { eventually } from '@portico/testing/eventually';

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
async function serve(remotes: Record<string, string>, cache = true, styleLimits?: ServerRenderingOptions['styleLimits']) {
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-hostile-'));
  const file = path.join(folder, 'config.json');
  writeFileSync(file, JSON.stringify({ ...sampleConfig, remotes }));
  const log: string[] = [];
  /** The sections whose plans were set aside, as the server tells whoever asked to know. */
  const setAside: SectionId[] = [];
  // A generous page budget: a busy machine must not turn a page into the client-rendered one while a test reads it.
  const ssr = { cache, budgetMs: 5000, styleLimits, onSignal: ({ section, kind }: SectionSignal) => kind === 'set-aside' && setAside.push(section) };
  const running = await startPortico({ rootDir: root, basePort: 0, host: '127.0.0.1', configPath: file, log: linesLogger((line) => log.push(line)), ssr });
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
    await eventually(
      async () => {
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
      },
      { what: 'all three set aside', withinMs: 60_000 },
    );
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
    await eventually(() => [...seen].every((pid) => !running(pid)), { what: 'every worker they had gone', withinMs: 10_000 });
    const { html } = await page(site.running);
    expect(pageDataOf(html)?.rendered).toEqual([]);
    expect(html).toContain('Loading Contact us…');

    // A new build of Home is started at once, and rendered again.
    site.configure({
      home: cdn.publish('home', 'remote-home'),
      about: cdn.publish('microtask-loop', 'remote-about', MICROTASK_LOOP),
      contact: cdn.publish('memory-bomb', 'remote-contact', MEMORY_BOMB),
    });
    await eventually(async () => pageDataOf((await page(site.running)).html)?.rendered.includes('home') ?? false, {
      what: 'the new Home rendered on the server',
      withinMs: 60_000,
    });
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
    await eventually(() => site.log.some((line) => line.includes("the about section's node build") && line.includes('threw while it was evaluated')), {
      what: 'About refused',
      withinMs: 60_000,
    });
    const { html } = await page(site.running);
    expect(pageDataOf(html)?.rendered).not.toContain('about');
    expect(site.running.renderWorker()!.sections.about.pid).toBeDefined();
  });

  test('a new build in config.json is loaded without a visitor, and the replaced one never runs again', async () => {
    await eventually(() => site.running.renderWorker()!.sections.contact.generation !== undefined, { what: 'build A live', withinMs: 60_000 });
    const generation = site.running.renderWorker()!.sections.contact.generation!;
    const evaluationsOfA = () => site.log.filter((line) => line.endsWith('build A evaluated')).length;
    const beforeSwap = evaluationsOfA();
    site.configure({
      home: cdn.publish('mutation', 'remote-home', MUTATION),
      about: cdn.publish('top-level-loop', 'remote-about', TOP_LEVEL_LOOP),
      contact: cdn.publish('contact-b', 'remote-contact', announce('B')),
    });
    // No page is asked for meanwhile.
    await eventually(() => (site.running.renderWorker()!.sections.contact.generation ?? 0) > generation, { what: 'build B live', withinMs: 60_000 });
    expect(site.log.some((line) => line.endsWith('build B evaluated'))).toBe(true);
    expect(evaluationsOfA()).toBe(beforeSwap);
  });
});

describe('manifests whose stylesheets would cost the server at every page', () => {
  let site: Served;
  const sheet = (name: string, bytes = 64) => `.${name} { content: "${'x'.repeat(bytes)}"; }`;
  const paths: Record<'home' | 'about' | 'contact', string[]> = { home: [], about: [], contact: [] };
  beforeAll(async () => {
    const home = cdn.publish('styled-home', 'remote-home');
    const about = cdn.publish('styled-about', 'remote-about');
    const contact = cdn.publish('styled-contact', 'remote-contact');
    // Home: one stylesheet there and eight named but missing; About: more than a section may have; Contact: over the size.
    paths.home = cdn.styled('styled-home', {
      'home.css': { css: sheet('home') },
      ...Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`missing-${index}.css`, { css: sheet(`m${index}`), missing: true }])),
    });
    paths.about = cdn.styled('styled-about', Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`a${index}.css`, { css: sheet(`a${index}`) }])));
    paths.contact = cdn.styled(
      'styled-contact',
      Object.fromEntries(Array.from({ length: 5 }, (_, index) => [`c${index}.css`, { css: sheet(`c${index}`, 300 * 1024) }])),
    );
    // A retired manifest's stylesheets go at once here (60 s on a server), so the rotation below can look.
    site = await serve({ home, about, contact }, true, { retiredMs: 0 });
  });
  afterAll(() => site.close());

  test('twenty pages: each stylesheet is fetched at most once, a failure or a refusal is logged once, and a section over the limits is left to the browser', async () => {
    let html = '';
    await eventually(async () => pageDataOf((html = (await page(site.running)).html))?.rendered.includes('home') ?? false, {
      what: 'Home rendered on the server',
      withinMs: 60_000,
    });
    for (let visit = 0; visit < 20; visit += 1) html = (await page(site.running, visit % 2 === 0 ? '' : '?type=2')).html;
    for (const path of [...paths.home, ...paths.about, ...paths.contact])
      expect(cdn.requests.filter((request) => request === path).length).toBeLessThanOrEqual(1);
    expect(cdn.requests.filter((request) => request === paths.home[0])).toHaveLength(1);
    expect(cdn.requests.filter((request) => paths.about.includes(request))).toEqual([]);
    expect(site.log.filter((line) => line.includes('styled-home/mf-manifest.json'))).toEqual([
      expect.stringMatching(/^the home section's stylesheets: 8 of 9 could not be fetched for its page, which asks for them scoped when it loads/),
    ]);
    expect(site.log.filter((line) => line.includes('styled-about/mf-manifest.json'))).toEqual([
      expect.stringMatching(/^the about section is rendered in the browser: its manifest names 40 stylesheets/),
    ]);
    expect(site.log.filter((line) => line.includes('styled-contact/mf-manifest.json'))).toEqual([
      expect.stringMatching(/^the contact section is rendered in the browser: its stylesheets come to more than 1 MB/),
    ]);
    expect(pageDataOf(html)?.rendered).toEqual(['home']);
    // Home's own from the page's origin, the missing ones where its manifest names them.
    expect(html).toMatch(/<link rel="stylesheet" href="\/section-styles\/sha384-[^"]+\.css"/);
    expect(html).toContain(`href="${cdn.origin}${paths.home[1]}"`);
  });

  test('a manifest rotating its stylesheets: the server keeps only what the manifest served now names; the old addresses answer 404 and cost no fetch', async () => {
    const served = (html: string) => [...html.matchAll(/href="(\/section-styles\/[^"]+)"/g)].map((match) => match[1]!);
    const old = new Set<string>();
    for (let build = 0; build < 5; build += 1) {
      const [path] = cdn.styled('styled-home', { [`rotated-${build}.css`]: { css: sheet(`r${build}`, 4096) } });
      let html = '';
      await eventually(async () => (html = (await page(site.running)).html).includes(`data-href="${cdn.origin}${path}"`), {
        what: `rotation ${build} served`,
        withinMs: 60_000,
      });
      for (const address of served(html)) old.add(address);
    }
    const [current] = served((await page(site.running)).html);
    old.delete(current!);
    expect(old.size).toBe(4);
    const before = cdn.requests.length;
    for (const address of old) expect((await fetch(`${site.running.url}${address}`)).status).toBe(404);
    expect((await fetch(`${site.running.url}${current}`)).status).toBe(200);
    expect(cdn.requests.length).toBe(before);
    // One manifest's stylesheets, with their compressed copies; and only pages made with the manifest served now.
    expect(site.running.renderWorker()!.styleBytes).toBeLessThan(3 * 4096 + 1024);
    expect(site.running.renderWorker()!.cachedPages).toBeLessThanOrEqual(3);
  });
});

test("a section whose start never ends (a microtask loop at init) holds the host's port no longer than its first worker's death, 10 s at most; the page is served meanwhile", async () => {
  const site = await serve({ home: cdn.publish('home', 'remote-home'), contact: cdn.publish('init-loop', 'remote-contact', INIT_MICROTASK_LOOP) });
  try {
    // The port is open: what the log says of Contact's workers up to now.
    const deaths = site.log.filter((line) => line.startsWith("the contact section's worker did not answer")).length;
    expect(deaths).toBeLessThanOrEqual(1);
    expect(site.log.join('\n')).not.toContain('times in a row');
    expect(site.running.renderWorker()!.sections.contact.quarantined).toBe(false);
    const { status, html } = await page(site.running);
    expect(status).toBe(200);
    expect(pageDataOf(html)?.rendered).not.toContain('contact');
    expect(html).toContain('Loading Contact us…');
  } finally {
    await site.close();
  }
});

describe('a section worker killed from outside', () => {
  let site: Served;
  beforeAll(async () => {
    site = await serve({
      home: cdn.publish('home', 'remote-home'),
      about: cdn.publish('about', 'remote-about'),
      contact: cdn.publish('contact', 'remote-contact'),
    });
  });
  afterAll(() => site.close());

  test('killed, and its replacement killed as soon as it appears: a worker is started again, and the section is rendered on the server again', async () => {
    const contact = () => site.running.renderWorker()!.sections.contact;
    await eventually(() => contact().pid !== undefined, { what: 'Contact live', withinMs: 60_000 });
    const first = contact().pid!;
    process.kill(first, 'SIGKILL');
    // The replacement, the moment it is there (starting or live).
    await eventually(() => contact().pid !== undefined && contact().pid !== first, { what: 'a replacement', withinMs: 60_000 });
    process.kill(contact().pid!, 'SIGKILL');
    await eventually(async () => pageDataOf((await page(site.running)).html)?.rendered.includes('contact') ?? false, {
      what: 'a third worker live and rendering',
      withinMs: 60_000,
    });
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
    log: linesLogger((line) => log.push(line)),
    // As on a machine without bubblewrap where the server is not root.
    ssr: { sandbox: { bwrapPath: undefined, isRoot: false } },
  });
  try {
    const { html } = await page(running);
    expect(html).toContain('>About Us<');
    expect(pageDataOf(html)?.rendered).toEqual([]);
    expect(html).toContain('Loading Home…');
    expect(log.join('\n')).toContain(
      'sections are rendered in the browser only: no sandbox for section code: bubblewrap is not installed and the server is not root; install bubblewrap (`apt-get install bubblewrap`)',
    );
    expect(cdn.requests.filter((request) => request.startsWith('/unsandboxed-home/server/'))).toEqual([]);
  } finally {
    await running.close();
    rmSync(folder, { recursive: true, force: true });
  }
});
