import { sectionGrant, useConfig, usePortico } from '@portico/shared-config';
import type { SectionId } from '@portico/contract/sections';
import { localeOf } from '@portico/contract/languages';
import { useEffect } from 'react';
import type { SectionLoads } from '../remotes/load-section';
import { OverrideNotice } from '../remotes/override-notice';
import type { IslandStart } from '../remotes/island-contract';
import { RemoteSection } from '../remotes/remote-section';
import { SectionIsland } from '../remotes/section-island';
import { BrandMark } from '../shell/brand-mark';
import { ConfigNotice } from '../shell/config-notice';
import { PreviewNotice } from '../shell/preview-notice';
import { LanguageSwitch } from '../shell/language-switch';
import { SectionTabs, tabId } from '../shell/section-tabs';
import { startShellBehaviour } from '../page-script/shell-behaviour';
import { restoreDrafts } from '../page-script/restore-drafts';
import { SiteFooter } from '../shell/site-footer';
import { SkipLink } from '../shell/skip-link';
import { usePageSections } from '../shell/use-page-sections';

export interface AppProps {
  /** Each of the page's sections' load, started at boot. */
  sections: SectionLoads;
  /**
   * How each section's island (a React root of its own) starts: the
   * server's markup, or none. Without it, as in the benchmark's single-bundle
   * build, the sections are part of this tree, as in any one-root React app.
   */
  islands?: Partial<Record<SectionId, IslandStart>>;
}

/** A section the page lists but whose island was not given a start: rendered afresh, as on the client-rendered page. */
const AFRESH: IslandStart = { html: '', hydrate: false };

export function App({ sections, islands }: AppProps) {
  const config = useConfig();
  const { comName } = config;
  const { language, text } = usePortico();
  const pageSections = usePageSections();

  // A client-rendered page: the shell's behaviour once React has drawn it.
  // (A server-rendered page's shell is never hydrated: its page script does this.)
  useEffect(() => {
    const stopShell = startShellBehaviour(document, { storage: window.sessionStorage });
    const stopRestoring = restoreDrafts(document, window.sessionStorage);
    return () => {
      stopShell();
      stopRestoring();
    };
  }, []);

  useEffect(() => {
    if (comName) document.title = comName;
  }, [comName]);

  // The one place `<html lang>` is set: on the first render and on every switch.
  useEffect(() => {
    document.documentElement.lang = localeOf(language);
  }, [language]);

  return (
    <>
      <SkipLink />
      <header className="site-header">
        <nav className="site-nav" aria-label={comName ?? text.nav.label}>
          {/* The page's one h1: every section's title is an h2 under it. */}
          <h1 className="site-nav__brand">
            <BrandMark />
            {comName ?? text.siteName}
          </h1>
          {/* The language links before the tabs, so that Tab goes from the tab list straight to its panel (issue 49);
              app.css lays them out in this order too. */}
          <LanguageSwitch />
          <SectionTabs />
        </nav>
        {/* In the sticky header: a preview link opens on its section's tab, scrolled there, and the notice stays in view. */}
        <PreviewNotice />
      </header>
      <ConfigNotice />
      <OverrideNotice />
      {/* As rendered, no panel is hidden: with JavaScript off every one reads,
          and until the page script runs app.css shows the one the hash names. */}
      <main className="site-main">
        {pageSections.map(({ id, label }) => {
          const load = sections[id];
          return (
            load && (
              // A panel keeps what its section draws inside it (app.css), so its boxes cannot cover the nav, the tabs or the
              // footer (issue 46), unless the section is granted script. A short class: the page has bytes to spare for none.
              <section
                key={id}
                id={id}
                role="tabpanel"
                aria-labelledby={tabId(id)}
                tabIndex={0}
                className={sectionGrant(config, id).interactive ? 'section-panel interactive' : 'section-panel'}
              >
                {islands ? (
                  <SectionIsland section={id} label={label} load={load} start={islands[id] ?? AFRESH} />
                ) : (
                  <RemoteSection section={id} label={label} load={load} />
                )}
              </section>
            )
          );
        })}
      </main>
      <SiteFooter />
    </>
  );
}
