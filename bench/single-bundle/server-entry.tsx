import { Writable } from 'node:stream';
import { loadPack, PorticoProvider, type ConfigProblem, type SiteConfig } from '@portico/shared-config';
import { pagePath, localeOf, type Language } from '@portico/contract/languages';
import { StrictMode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { App } from '../../host/src/app/app';
import { pageHead, withPageHead } from '../../host/src/workers/page-head';
import { resolveRemotes } from '@portico/contract/override';
import { RemoteUrlsContext } from '../../host/src/remotes/remote-urls-context';
import { PageAddressContext } from '../../host/src/shell/page-address-context';
import { startSections } from './load-section';

export interface SinglePageInput {
  /** The single bundle's built index.html. */
  indexHtml: string;
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
 * The single-bundle page rendered on the server, for the benchmark's fourth
 * column: the host's App with the sections imported directly, put into the
 * built index.html with the page's head; the browser hydrates it
 * (hydrate-page.tsx).
 */
export async function renderSinglePage({ indexHtml, config, problems, language, origin }: SinglePageInput): Promise<string> {
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
  const withHead = withPageHead(indexHtml, pageHead({ config, language, text, origin }));
  // The shell the client-rendered page draws is between index.html's root
  // markers, as the render worker finds it.
  const root = /<!--!portico:root-->[\s\S]*?<!--!\/portico:root-->/;
  if (!root.test(withHead)) throw new Error('index.html has no root markers around the shell header');
  return withHead
    .replace(/<html lang=("?)[^"\s>]*\1/, `<html lang="${localeOf(language)}"`)
    .replace(root, () => app);
}
