import { Writable } from 'node:stream';
import { loadPack, PorticoProvider, type ConfigProblem, type SiteConfig } from '@portico/shared-config';
import { pagePath, localeOf, type Language } from '@portico/contract/languages';
import { pageDataScript, pageSectionsOf } from '@portico/contract/page-data';
import { BUILT_IN_SECTIONS } from '@portico/contract/section-entries';
import { SECTION_IDS } from '@portico/contract/sections';
import { PAGE_DATA_SLOT } from '@portico/node-sections/protocol';
import { StrictMode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { App } from '../../host/src/app/app';
import { pageDocument } from '../../host/src/workers/page-document';
import { pageHead, withPageHead } from '../../host/src/workers/page-head';
import { resolveRemotes } from '@portico/contract/override';
import { RemoteUrlsContext } from '../../host/src/remotes/remote-urls-context';
import { PageAddressContext } from '../../host/src/shell/page-address-context';
import { startSections } from './load-section';

export interface SinglePageInput {
  /** The single bundle's built index.html. */
  indexHtml: string;
  /** `<link rel="stylesheet">` tags of the sections' CSS, put last in `<head>` (the federated page puts its first panel's there). */
  styles: string;
  /** config.json as read (a JSON value), for the page data; `config` is it parsed. */
  rawConfig: unknown;
  config: SiteConfig;
  problems: readonly ConfigProblem[];
  language: Language;
  origin: string;
}

/** The React tree as a string, once every section and text pack has arrived (no inline script). */
function renderToHtml(page: React.ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        html += chunk.toString();
        done();
      },
    });
    sink.on('finish', () => resolve(html));
    const stream = renderToPipeableStream(page, {
      onAllReady: () => stream.pipe(sink),
      onShellError: reject,
    });
  });
}

/**
 * The single-bundle page rendered on the server, for the benchmark's single
 * SSR column, composed as the product's shell worker and front server
 * compose the federated page: the host's App with the sections imported
 * directly, put into the built index.html with the page's head by the
 * host's own `pageDocument` (the entry script preloaded and started after
 * the first paint by hydrate-after-paint.js, its page script; the client-only config.json
 * preload and noscript notice left out, the sections' stylesheets last in
 * the head), and the page data the browser starts from instead of fetching
 * config.json. The browser hydrates it (hydrate-page.tsx).
 */
export async function renderSinglePage({ indexHtml, styles, rawConfig, config, problems, language, origin }: SinglePageInput): Promise<string> {
  const text = await loadPack(language);
  const remotes = resolveRemotes(config.remotes, config.allowedRemoteOrigins, '');
  const app = await renderToHtml(
    <StrictMode>
      <PorticoProvider config={config} problems={problems} language={language} text={text}>
        <RemoteUrlsContext value={remotes}>
          {/* The address the server renders for, as the render worker gives it. */}
          <PageAddressContext value={pagePath(language)}>
            <App sections={startSections()} />
          </PageAddressContext>
        </RemoteUrlsContext>
      </PorticoProvider>
    </StrictMode>,
  );
  // The monolith's page script is the loader that starts its entry after the
  // first paint (host/public/hydrate-after-paint.js): it has the whole page to
  // hydrate, so its entry is preloaded at once, as the federated page would
  // if it had to hydrate everything.
  const template = withPageHead(indexHtml, pageHead({ config, language, text, origin }))
    .replace(/<!--!portico:page-script [\w.-]*-->/, '<!--!portico:page-script hydrate-after-paint.js-->')
    .replace(/<script defer(?:="defer")? src="?([^"\s>]+)"?><\/script>/, (tag, src: string) => `<link rel="preload" href="${src}" as="script">${tag}`);
  const page = pageDocument({
    template,
    lang: localeOf(language),
    title: undefined,
    head: '',
    styles,
    root: app,
  });
  // No manifests: nothing is federated. Every section is in the server's HTML.
  const data = pageDataScript({
    config: rawConfig,
    language,
    sections: pageSectionsOf(BUILT_IN_SECTIONS, language),
    manifests: {},
    rendered: [...SECTION_IDS],
    hydration: {},
    problems: [...problems],
    allowedRemoteOrigins: [...config.allowedRemoteOrigins],
  });
  return page.replace(PAGE_DATA_SLOT, () => data);
}
