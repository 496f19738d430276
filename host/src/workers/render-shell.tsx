import { SECTION_SLOT, SECTION_STYLES_SLOT, STYLES_SLOT, type RenderedShell, type ShellRequest } from '@portico/node-sections/protocol';
import { fill, loadPack, type SectionModule, type TextPack } from '@portico/shared-config';
import type { SectionId } from '@portico/contract/sections';
import { pageSectionsOf } from '@portico/contract/page-data';
import { localeOf } from '@portico/contract/languages';
import { themeStylesheet } from '@portico/config-server/theme-stylesheet';
import { renderToStaticMarkup } from 'react-dom/server';
import { escapeHtml } from '@portico/contract/html';
import { pageHead, withPageHead } from './page-head';
import { PageRoot } from '../app/page-root';
import { islandMarkup, type IslandStart } from '../remotes/island-contract';
import type { SectionLoads } from '../remotes/load-section';
import { pageRemotes } from '../remotes/page-remotes';
import { pageDocument } from './page-document';
import { renderToHtml } from './render-to-html';

/**
 * `<link rel="stylesheet">` tags for a section, with the hashes its manifest
 * gives: render-blocking like the shell's own CSS, so the first paint has
 * the section styled and nothing shifts when its code lands. A copy from
 * the page's origin carries its section's URL as `data-href`: webpack's CSS
 * chunk loader in the section's code looks for that before it adds a link,
 * so a hydrating island does not fetch its stylesheet again.
 */
function sectionStyleLinks(stylesheets: readonly { href: string; integrity?: string; source?: string }[]): string {
  return stylesheets
    .map(({ href, integrity, source }) => {
      const attributes = [
        `href="${escapeHtml(href)}"`,
        'crossorigin="anonymous"',
        integrity && `integrity="${escapeHtml(integrity)}"`,
        source && `data-href="${escapeHtml(source)}"`,
      ];
      return `<link rel="stylesheet" ${attributes.filter(Boolean).join(' ')} />`;
    })
    .join('');
}

/** What a section shows while its code loads in the browser: RemoteSection's Suspense fallback, the same markup. */
function loadingLine(text: TextPack, label: string): string {
  return renderToStaticMarkup(
    <p className="section-loading" aria-busy="true">
      {fill(text.sections.loading, { section: label })}
    </p>,
  );
}

/** Loads nothing: the server renders each section apart (section workers), so the shell's loads are never read here. */
const never = new Promise<SectionModule>(() => undefined);
const NOT_LOADED_HERE = { first: never, again: () => never };

const SHELL_DEADLINE_MS = 2000;

/**
 * The page around the sections for one request: nav, tabs, notices, footer,
 * title, `<html lang>` and the head, in the visitor's language, with a slot
 * in each section's container. Host code only: no section's code runs here
 * (each section is rendered by a sandboxed worker of its own, and the front
 * server puts its HTML into its slot), so no section can change what the
 * shell shows, in this page or the next.
 */
export async function renderShell(page: ShellRequest): Promise<RenderedShell> {
  const { config, problems } = page;
  const text = await loadPack(page.language);
  // The browser resolves the same config and address with the same function:
  // the notice, and which sections it loads itself, match what is hydrated.
  const remotes = pageRemotes(config, page.search);
  // The page's sections as the front server chose them: a tab, a panel and a slot each.
  const pageSections = pageSectionsOf(page.sections, page.language);
  const ids = pageSections.map(({ id }) => id);
  const notLoaded: SectionLoads = Object.fromEntries(ids.map((id) => [id, NOT_LOADED_HERE]));
  // The shell renders no section: each container holds the slots the front
  // server fills, its stylesheets' before the island's root (the island's
  // root is the container's last element).
  const slots: Partial<Record<SectionId, IslandStart>> = Object.fromEntries(
    ids.map((id) => [id, { html: SECTION_STYLES_SLOT(id) + islandMarkup(SECTION_SLOT(id)), hydrate: false }]),
  );
  const root = await renderToHtml(
    <PageRoot
      config={config}
      problems={problems}
      language={page.language}
      text={text}
      remotes={remotes}
      sections={notLoaded}
      islands={slots}
      pageSections={pageSections}
      address={`${page.pathname}${page.search}`}
    />,
    { deadlineMs: SHELL_DEADLINE_MS },
  );
  // index.html's static title, description and preview tags give way to the
  // ones only the server knows (company, language, origin).
  // The same stylesheet, and so the same version, as the front server answers at /theme.css for this config.json.
  const themeStylesheetHref = themeStylesheet(config.theme)?.href;
  const head = pageHead({ config, language: page.language, text, origin: page.origin, themeStylesheetHref });
  const html = pageDocument({
    template: withPageHead(page.template, head),
    lang: localeOf(page.language),
    title: undefined,
    head: '',
    styles: STYLES_SLOT,
    root,
  });
  const fallbacks = Object.fromEntries(pageSections.map(({ id, label }) => [id, loadingLine(text, label)]));
  const styles: Partial<Record<SectionId, string>> = {};
  for (const id of ids) {
    const stylesheets = page.stylesheets[id];
    if (stylesheets !== undefined) styles[id] = sectionStyleLinks(stylesheets);
  }
  return { html, fallbacks, styles, overridden: remotes.overrides.map(({ section }) => section) };
}
