import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { hostPageHeaders, requestTarget, staticFiles, visitorOf } from '@portico/server';
import { answerConfig } from '@portico/config-server/config-answer';
import { languageFromSearch, type Language } from '@portico/contract/languages';
import { parseConfig } from '@portico/shared-config/config';
import type { SinglePageInput } from './server-entry';

export interface SingleSsrServer {
  url: string;
  close(): Promise<void>;
}

type RenderSinglePage = (input: SinglePageInput) => Promise<string>;

/**
 * The benchmark's server for the single bundle rendered on the server: `/`
 * and `/index.html` rendered by the Node build of server-entry.tsx (cached
 * per language and config.json text, as a real server would), /config.json
 * as `npm run serve` answers it, every other file from the single bundle's
 * dist/ with the production server's own file handler and headers.
 */
export async function startSingleSsrServer({ dist, serverEntry, port }: { dist: string; serverEntry: string; port: number }): Promise<SingleSsrServer> {
  const { renderSinglePage } = (await import(serverEntry)) as { renderSinglePage: RenderSinglePage };
  // The sections' styles are chunks the browser would fetch with their code,
  // after the server's markup had been painted without them (a layout shift):
  // the server-rendered page links them all from its head.
  const linked = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const styles = readdirSync(dist)
    .filter((file) => file.endsWith('.css') && !linked.includes(file))
    .map((file) => `<link rel="stylesheet" href="/${file}">`)
    .join('');
  const indexHtml = linked.replace('</head>', `${styles}</head>`);
  const cache = new Map<string, Promise<string>>();
  const files = staticFiles(dist, { crossOrigin: false, pageHeaders: () => Promise.resolve({}) });

  const server: Server = createServer((req, res) => {
    void (async () => {
      const target = requestTarget(req.url);
      const { origin, host } = visitorOf(req, { trustProxy: false });
      const config = await answerConfig({ hostHeader: host, basePort: port });
      if (target?.pathname === '/config.json') {
        res.writeHead(config.status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache' });
        res.end(config.body);
        return;
      }
      if (target?.pathname === '/' || target?.pathname === '/index.html') {
        const read = parseConfig(JSON.parse(config.body));
        const language: Language = languageFromSearch(target.search);
        const key = `${language} ${origin} ${config.body}`;
        if (!cache.has(key)) {
          const { config: parsed, problems } = read;
          cache.set(key, renderSinglePage({ indexHtml, config: parsed, problems, language, origin: origin ?? `http://localhost:${port}` }));
        }
        const html = await cache.get(key)!;
        // The page's policy, without the preloads of the remotes' manifests: a single bundle loads none.
        const { Link: _preloads, ...headers } = hostPageHeaders(read, target.search);
        res.writeHead(200, {
          ...headers,
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Length': String(Buffer.byteLength(html)),
          'Cache-Control': 'no-cache',
        });
        res.end(req.method === 'HEAD' ? undefined : html);
        return;
      }
      await files(req, res, () => {
        res.writeHead(404).end();
      });
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
