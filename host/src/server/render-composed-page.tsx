import { Writable } from 'node:stream';
import type { PageRequest, SectionOutcomes } from '@portico/render/protocol';
import { EXPOSED_SECTION, loadPack, localeOf, parseConfig, SECTION_IDS, type SectionId, type SectionModule } from '@portico/shared-config';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { themeStylesheet } from '@portico/shared-config/theme-stylesheet';
import { PageRoot } from '../app/page-root';
import type { SectionLoads } from '../remotes/load-section';
import { exposeStylesheets } from '../remotes/check-manifest';
import { pageRemotes } from '../remotes/page-remotes';
import { manifestHashes, manifestPins } from '../remotes/remote-integrity';
import { LeftToBrowser } from './browser-only';
import type { NodeSections } from './node-sections';
import { pageHead, withPageHead } from '../app/page-head';
import { escapeHtml, pageDocument } from './page-document';

/**
 * Of the page's budget, how long the sections' node builds may take to load
 * (a warm worker has them already) and when whatever still renders is left
 * to the browser; the rest is for the IPC round trip and the front server.
 */
const LOAD_SHARE = 0.5;
const RENDER_SHARE = 0.8;

/** A promise React's `use()` reads at once, without suspending. */
function fulfilled<T>(value: T): Promise<T> {
  return Object.assign(Promise.resolve(value), { status: 'fulfilled', value });
}

function rejected(reason: unknown): Promise<never> {
  const promise = Promise.reject(reason);
  promise.catch(() => undefined);
  return Object.assign(promise, { status: 'rejected', reason });
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * The tree to HTML once everything in it is ready (`onAllReady`: no inline
 * script, so the CSP stays as it is). Whatever is still pending at the
 * deadline is left to the browser (its Suspense fallback, hydrated by a
 * client render); a section that throws is too, and is reported.
 */
function renderToHtml(tree: ReactNode, deadlineMs: number, onSectionError: (error: unknown) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = '';
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        html += chunk.toString();
        done();
      },
      final(done) {
        resolve(html);
        done();
      },
    });
    const stream = renderToPipeableStream(tree, {
      onAllReady() {
        clearTimeout(timer);
        stream.pipe(sink);
      },
      onShellError(error) {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
      onError(error) {
        onSectionError(error);
        // The browser hydrating this boundary reports this digest, not the server's message.
        return 'portico-server-render-failed';
      },
    });
    const timer = setTimeout(() => stream.abort(new LeftToBrowser(`not rendered within ${deadlineMs} ms`)), deadlineMs);
  });
}

/**
 * `<link rel="stylesheet">` tags for the sections rendered here, with the
 * hashes their manifests give: render-blocking like the shell's own CSS, so
 * the first paint has them styled and nothing shifts when their code lands.
 */
function sectionStyleLinks(manifests: PageRequest['manifests'], remotes: Partial<Record<SectionId, string>>, rendered: readonly SectionId[]): string {
  return rendered
    .flatMap((id) => {
      const url = remotes[id];
      const text = manifests[id];
      if (url === undefined || text === undefined) return [];
      try {
        const manifest: unknown = JSON.parse(text);
        const hashes = manifestHashes(manifest, url)?.byUrl;
        return exposeStylesheets(manifest, url, EXPOSED_SECTION).map((href) => {
          const integrity = hashes?.get(href);
          return `<link rel="stylesheet" href="${escapeHtml(href)}" crossorigin="anonymous"${integrity ? ` integrity="${escapeHtml(integrity)}"` : ''} />`;
        });
      } catch {
        // A manifest the worker could load is JSON; a section whose manifest is not was left to the browser.
        return [];
      }
    })
    .join('');
}

export interface ComposedPage {
  html: string;
  sections: SectionOutcomes;
}

/**
 * The whole composed page for one request: nav, the three sections in the
 * visitor's language, footer, title and `<html lang>`, with the hydration
 * data the browser starts from. A section whose node build is missing,
 * refused, slow or throwing is rendered as the browser's loading line and
 * left to the browser; the rest of the page is still server-rendered. So is
 * a section a `?remote.<section>=` override replaces for this visit: only
 * the configured remotes' code ever runs here, and the override's is
 * neither fetched nor named in the hydration data.
 */
export async function renderComposedPage(page: PageRequest, nodeSections: NodeSections, log: (line: string) => void): Promise<ComposedPage> {
  const started = performance.now();
  const { config, problems } = parseConfig(page.config);
  const pins = manifestPins(config);
  const text = loadPack(page.language);
  // The browser resolves the same config and address with the same function:
  // the notice, and which sections it loads itself, match what is hydrated.
  const remotes = pageRemotes(config, page.search);
  const overridden = new Set(remotes.overrides.map(({ section }) => section));
  const manifests: PageRequest['manifests'] = Object.fromEntries(
    SECTION_IDS.flatMap((id) => (overridden.has(id) || page.manifests[id] === undefined ? [] : [[id, page.manifests[id]]])),
  );

  const entries = SECTION_IDS.map((id) => {
    const url = config.remotes[id];
    const manifest = manifests[id];
    return url === undefined || manifest === undefined ? undefined : nodeSections(url, manifest, pins.get(url));
  });
  const loadWait = page.budgetMs * LOAD_SHARE;
  await Promise.race([Promise.all(entries.map((entry) => entry?.settled)), delay(loadWait)]);

  const outcomes: SectionOutcomes = {};
  const loadOf = (id: SectionId, index: number) => {
    const state = entries[index]?.state;
    let first: Promise<SectionModule>;
    if (state?.status === 'loaded') {
      first = fulfilled(state.module);
      outcomes[id] = 'server';
    } else {
      const reason = overridden.has(id)
        ? `overridden for this visit by ?remote.${id}=`
        : state === undefined
          ? 'no manifest fetched yet'
          : state.status === 'loading'
            ? `node build not loaded within ${Math.round(loadWait)} ms`
            : state.reason;
      first = rejected(new LeftToBrowser(reason));
      outcomes[id] = `browser: ${reason}`;
    }
    return [id, { first, again: () => first }];
  };
  const sections = Object.fromEntries(SECTION_IDS.map(loadOf)) as SectionLoads;

  const address = `${page.pathname}${page.search}`;
  const tree = (
    <PageRoot
      config={config}
      problems={problems}
      language={page.language}
      text={await text}
      remotes={remotes}
      sections={sections}
      address={address}
    />
  );
  const renderDeadline = Math.max(0, page.budgetMs * RENDER_SHARE - (performance.now() - started));
  const root = await renderToHtml(tree, renderDeadline, (error) => {
    log(`a section threw while rendering on the server; the browser renders it: ${error instanceof Error ? error.message : String(error)}`);
  });
  // index.html's static title, description and preview tags give way to the
  // ones only the server knows (company, language, origin).
  // The same stylesheet, and so the same version, as the front server answers at /theme.css for this config.json.
  const themeStylesheetHref = themeStylesheet(config.theme)?.href;
  const head = pageHead({ config, language: page.language, text: await text, origin: page.origin, themeStylesheetHref });
  const html = pageDocument({
    template: withPageHead(page.template, head),
    lang: localeOf(page.language),
    title: undefined,
    head: '',
    styles: sectionStyleLinks(
      manifests,
      config.remotes,
      SECTION_IDS.filter((id) => outcomes[id] === 'server'),
    ),
    root,
    data: { config: page.config, language: page.language, manifests },
  });
  return { html, sections: outcomes };
}
