import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  answerPage,
  COMPRESSION_LANES,
  PageCache,
  PageCosts,
  dataHeaders,
  hostPageHeaders,
  requestTarget,
  staticFiles,
  type FileRequest,
  type EncodedPage,
} from '@portico/server';
import { commonHeadersFor, writeAnswer } from '@portico/platform/http';
import { answerConfig } from '@portico/config-server/config-answer';
import { visitorOf } from '@portico/platform/http';
import { escapeHtml } from '@portico/contract/html';
import { languageFromSearch, type Language } from '@portico/contract/languages';
import { parseConfig } from '@portico/shared-config/config';
import type { SinglePageInput } from './server-entry';

export interface SingleSsrServer {
  url: string;
  close(): Promise<void>;
}

type RenderSinglePage = (input: SinglePageInput) => Promise<string>;

/**
 * The sections' stylesheets as the federated page links them (the shell
 * worker's `sectionStyleLinks`): render-blocking, last in the head, with
 * their hash. In the single bundle the section components are split out of
 * the entry into a chunk of their own, so their CSS is the stylesheets
 * index.html does not link; the browser would otherwise fetch them with that
 * chunk's code, after the server's markup had been painted without them (a
 * layout shift). Named as webpack names them (relative, like index.html's
 * own), so its CSS loader finds them linked and does not add them again.
 */
function sectionStyleLinks(dist: string, indexHtml: string): string {
  return readdirSync(dist)
    .filter((file) => file.endsWith('.css') && !indexHtml.includes(file))
    .sort()
    .map((file) => {
      const integrity = `sha384-${createHash('sha384')
        .update(readFileSync(path.join(dist, file)))
        .digest('base64')}`;
      return `<link rel="stylesheet" href="${escapeHtml(file)}" crossorigin="anonymous" integrity="${integrity}" />`;
    })
    .join('');
}

/**
 * The benchmark's server for the single bundle rendered on the server,
 * serving it as `npm run serve` serves the federated page: `/` and
 * `/index.html` rendered by the Node build of server-entry.tsx (composed by
 * the host's own pageDocument, cached per language, origin and config.json
 * text, kept and compressed by the product's own PageCache) and answered by the product's own
 * `answerPage` (brotli or gzip by Accept-Encoding, an ETag per encoding,
 * no-cache) with the host page's headers; /config.json as `npm run serve`
 * answers it; every other file from the single bundle's dist/ with the
 * production server's own file handler and headers (the build's .br/.gz,
 * hashed files immutable for a year, the rest revalidated).
 */
export async function startSingleSsrServer({ dist, serverEntry, port }: { dist: string; serverEntry: string; port: number }): Promise<SingleSsrServer> {
  const { renderSinglePage } = (await import(serverEntry)) as { renderSinglePage: RenderSinglePage };
  const indexHtml = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const styles = sectionStyleLinks(dist, indexHtml);
  const pages = new PageCache(true, new PageCosts(COMPRESSION_LANES));
  const cache = new Map<string, Promise<EncodedPage>>();
  const files = staticFiles<FileRequest>(dist, { crossOrigin: false, pageHeaders: () => Promise.resolve({}) });

  const server: Server = createServer((req, res) => {
    void (async () => {
      const target = requestTarget(req.url);
      const { origin, host } = visitorOf(req, { trustProxy: false });
      const config = await answerConfig({ hostHeader: host, basePort: port });
      if (target?.pathname === '/config.json') {
        res.writeHead(config.status, { ...dataHeaders(), 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache' });
        res.end(config.body);
        return;
      }
      if (target?.pathname === '/' || target?.pathname === '/index.html') {
        const rawConfig: unknown = JSON.parse(config.body);
        const read = parseConfig(rawConfig);
        const language: Language = languageFromSearch(target.search);
        const key = `${language} ${origin} ${config.body}`;
        if (!cache.has(key)) {
          const { config: parsed, problems } = read;
          const rendering = renderSinglePage({
            indexHtml,
            styles,
            rawConfig,
            config: parsed,
            problems,
            language,
            origin: origin ?? `http://localhost:${port}`,
          });
          // Kept and compressed by the product's own page cache: each encoding made once, its brotli then made smallest.
          cache.set(
            key,
            rendering.then((html) => pages.encoded(pages.add(key, html, undefined))),
          );
        }
        const page = await cache.get(key)!;
        // The page's policy, without the preloads of the remotes' manifests, as
        // the product sends its server-rendered page (there: the manifests are
        // inlined; here: a single bundle loads none). The default config.json
        // names the remotes on the visitor's host, so the page varies by Host,
        // as the product's does.
        const { Link: _preloads, ...headers } = hostPageHeaders(read, target.search);
        writeAnswer(res, await answerPage(req, page, { ...headers, Vary: 'Host' }));
        return;
      }
      // The headers the product's root plugin adds: a script or stylesheet without the document's own.
      const file = await files({ raw: req }, () => ({ status: 404, headers: {} }));
      writeAnswer(res, file, commonHeadersFor(file.headers['Content-Type']));
    })().catch((error: unknown) => {
      console.error(`single-bundle SSR: ${req.url ?? ''} failed: ${String(error)}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
